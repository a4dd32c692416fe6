// HTTP load with autocannon: a short warm-up, then the measured run. Loopback only, bounded in time.
import autocannon, { type Result } from 'autocannon';
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LoadOptions {
  connections: number;
  durationSec: number;
  warmupSec: number;
  headers?: Record<string, string>;
  /** CPU ms the server process has used so far: sampled around the measured run. */
  serverCpuMs?: () => Promise<number>;
}

export interface LoadFigures {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Bytes per second of response, to tell a bandwidth limit from a CPU limit. */
  bytesPerSec: number;
  /** Server process CPU time per request (ms): the cost of a request, less sensitive to a busy machine than req/s. */
  serverCpuMsPerRequest?: number;
  /** How busy all cores of the machine were during the measured run (server, PostgreSQL, load generator, others). */
  machineBusyPct: number;
}

/** autocannon stops with requests still in flight; the server finishes them before the next run starts. */
const DRAIN_MS = 1000;

export async function measureLoad(url: string, options: LoadOptions): Promise<LoadFigures> {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) throw new Error(`The bench only loads 127.0.0.1, not ${url}`);
  const run = async (duration: number) => {
    const result = await autocannon({ url, connections: options.connections, duration, headers: options.headers, timeout: 10 });
    await sleep(DRAIN_MS);
    return assertClean(url, result);
  };
  if (options.warmupSec > 0) await run(options.warmupSec);
  const cpuBefore = await options.serverCpuMs?.();
  const machineBefore = machineTimes();
  const result = await run(options.durationSec);
  const machine = machineTimes(machineBefore);
  const cpuAfter = await options.serverCpuMs?.();
  return {
    requestsPerSec: Math.round(result.requests.total / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    bytesPerSec: Math.round(result.throughput.total / result.duration),
    serverCpuMsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined ? undefined : round3((cpuAfter - cpuBefore) / result.requests.total),
    machineBusyPct: Math.round((100 * machine.busy) / (machine.busy + machine.idle)),
  };
}

/** How busy the machine is while the bench itself does nothing: other jobs make every figure noisy. */
export async function backgroundBusyPct(ms = 2000): Promise<number> {
  const before = machineTimes();
  await sleep(ms);
  const { busy, idle } = machineTimes(before);
  return Math.round((100 * busy) / (busy + idle));
}

/** Busy and idle time of all cores (ms), since `since` when given. */
function machineTimes(since?: { busy: number; idle: number }): { busy: number; idle: number } {
  let busy = 0;
  let idle = 0;
  for (const { times } of cpus()) {
    busy += times.user + times.nice + times.sys + times.irq;
    idle += times.idle;
  }
  return since ? { busy: busy - since.busy, idle: idle - since.idle } : { busy, idle };
}

/** A run with failed requests measures the wrong thing (401, 429, 5xx...): stop with the status codes. */
function assertClean(url: string, result: Result): Result {
  if (result.errors === 0 && result.timeouts === 0 && result.non2xx === 0) return result;
  const codes = Object.entries(result.statusCodeStats)
    .map(([code, { count }]) => `${code}: ${count}`)
    .join(', ');
  throw new Error(
    `Load on ${url} had ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx (${codes})`,
  );
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
