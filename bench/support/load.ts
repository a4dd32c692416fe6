// HTTP load with autocannon: a short warm-up, then the measured run. Loopback only, bounded in time.
import autocannon, { type Result } from 'autocannon';
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LoadOptions {
  connections: number;
  durationSec: number;
  warmupSec: number;
  headers?: Record<string, string>;
  /** HTTP method (default GET). */
  method?: string;
  /** The same body for every request (with `method`, e.g. POST); its Content-Length is set. */
  body?: string | Buffer;
  /**
   * A body of its own for every request (a unique invoice number, say): called once per request
   * autocannon builds, warm-up included; takes precedence over `body`.
   */
  nextBody?: () => string | Buffer;
  /** CPU ms the server process has used so far: sampled around the measured run. */
  serverCpuMs?: () => Promise<number>;
  /** CPU ms the database server has used so far, when known. */
  databaseCpuMs?: () => number | undefined;
  /** Pause before starting, for requests of an earlier run still in flight (default 1000 ms). */
  drainMs?: number;
  /** Wait up to this long for other jobs on the machine to calm down before starting (0: do not wait). */
  quietWaitSec?: number;
  log?: (line: string) => void;
}

/** Where the CPU went during the measured run, in ms per request. */
export interface CpuPerRequest {
  /** The server process under test. */
  server?: number;
  /** PostgreSQL (postmaster and backends), when it can be measured. */
  database?: number;
  /** This process: autocannon. */
  loadGenerator: number;
  /** All cores of the machine, everything included. */
  machine: number;
  /** machine - the three above: other jobs on the machine and kernel work not charged to them. */
  other?: number;
}

export interface LoadFigures {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Bytes per second of response, to tell a bandwidth limit from a CPU limit. */
  bytesPerSec: number;
  /** CPU time per request: the server's is the cost of a request, less sensitive to a busy machine than req/s. */
  cpuMsPerRequest: CpuPerRequest;
  /** How busy all cores of the machine were during the measured run (server, PostgreSQL, load generator, others). */
  machineBusyPct: number;
}

/** autocannon stops with requests still in flight; the server finishes them before the next run starts. */
const DRAIN_MS = 1000;

export async function measureLoad(url: string, options: LoadOptions): Promise<LoadFigures> {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) throw new Error(`The bench only loads 127.0.0.1, not ${url}`);
  // Only the keys that are set: autocannon merges its defaults with Object.assign, so an undefined
  // value would replace a default (method GET, requests [{}]). A function per request goes through
  // `requests[].setupRequest`, which autocannon calls before every request it sends.
  const { method, body, nextBody } = options;
  const request = {
    ...(method === undefined ? {} : { method }),
    ...(body === undefined ? {} : { body }),
    ...(nextBody === undefined
      ? {}
      : {
          requests: [
            { ...(method === undefined ? {} : { method }), setupRequest: <R extends object>(req: R) => ({ ...req, body: nextBody() }) },
          ],
        }),
  };
  const run = async (duration: number, drainMs = DRAIN_MS) => {
    const result = await autocannon({ url, connections: options.connections, duration, headers: options.headers, timeout: 10, ...request });
    // The CPU of the measured run is sampled right away; the drain comes before the next run instead.
    await sleep(drainMs);
    return assertClean(url, result);
  };
  await sleep(options.drainMs ?? DRAIN_MS); // whatever ran before has finished
  if (options.quietWaitSec) await waitForQuiet(options.quietWaitSec, options.log);
  if (options.warmupSec > 0) await run(options.warmupSec);
  const before = {
    server: await options.serverCpuMs?.(),
    database: options.databaseCpuMs?.(),
    own: process.cpuUsage(),
    machine: machineTimes(),
  };
  const result = await run(options.durationSec, 0);
  const machine = machineTimes(before.machine);
  const own = process.cpuUsage(before.own);
  const after = { server: await options.serverCpuMs?.(), database: options.databaseCpuMs?.() };
  const n = result.requests.total;
  const perRequest = (ms: number | undefined) => (ms === undefined ? undefined : round3(ms / n));
  const cpu: CpuPerRequest = {
    server: perRequest(difference(before.server, after.server)),
    database: perRequest(difference(before.database, after.database)),
    loadGenerator: round3((own.user + own.system) / 1000 / n),
    machine: round3(machine.busy / n),
  };
  if (cpu.server !== undefined && cpu.database !== undefined)
    cpu.other = round3(cpu.machine - cpu.server - cpu.database - cpu.loadGenerator);
  return {
    requestsPerSec: Math.round(result.requests.total / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    bytesPerSec: Math.round(result.throughput.total / result.duration),
    cpuMsPerRequest: cpu,
    machineBusyPct: Math.round((100 * machine.busy) / (machine.busy + machine.idle)),
  };
}

/** The median of the numbers that are not NaN (the mean of the middle two for an even count); NaN for none. */
export function medianOf(values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Several measured runs of one server as one: req/s and CPU per request over all their requests, busy %
 * over their time; the latency percentiles are the runs' medians (autocannon keeps no histogram to merge).
 */
export function combineLoads(runs: LoadFigures[]): LoadFigures {
  if (runs.length === 1) return runs[0];
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const seconds = runs.reduce((sum, r) => sum + r.requests / r.requestsPerSec, 0);
  const perRequest = (pick: (cpu: CpuPerRequest) => number | undefined) => {
    if (runs.some((r) => pick(r.cpuMsPerRequest) === undefined)) return undefined;
    return round3(runs.reduce((sum, r) => sum + pick(r.cpuMsPerRequest)! * r.requests, 0) / requests);
  };
  const cpu: CpuPerRequest = {
    server: perRequest((c) => c.server),
    database: perRequest((c) => c.database),
    loadGenerator: perRequest((c) => c.loadGenerator)!,
    machine: perRequest((c) => c.machine)!,
    other: perRequest((c) => c.other),
  };
  return {
    requestsPerSec: Math.round(requests / seconds),
    p50Ms: medianOf(runs.map((r) => r.p50Ms)),
    p99Ms: medianOf(runs.map((r) => r.p99Ms)),
    requests,
    bytesPerSec: Math.round(runs.reduce((sum, r) => sum + r.bytesPerSec * (r.requests / r.requestsPerSec), 0) / seconds),
    cpuMsPerRequest: cpu,
    machineBusyPct: Math.round(runs.reduce((sum, r) => sum + r.machineBusyPct * (r.requests / r.requestsPerSec), 0) / seconds),
  };
}

/** How busy the machine is while the bench itself does nothing: other jobs make every figure noisy. */
export async function backgroundBusyPct(ms = 2000): Promise<number> {
  const before = machineTimes();
  await sleep(ms);
  const { busy, idle } = machineTimes(before);
  return Math.round((100 * busy) / (busy + idle));
}

/** The machine counts as quiet when, with the bench idle, less than this share of it is busy. */
const QUIET_PCT = 15;

async function waitForQuiet(maxSec: number, log?: (line: string) => void): Promise<void> {
  const until = Date.now() + maxSec * 1000;
  let busy = await backgroundBusyPct(1000);
  if (busy < QUIET_PCT) return;
  log?.(`machine ${busy} % busy with other jobs: waiting up to ${maxSec} s for it to calm down`);
  while (busy >= QUIET_PCT && Date.now() < until) busy = await backgroundBusyPct(1000);
  if (busy >= QUIET_PCT) log?.(`still ${busy} % busy: measuring anyway (see the "other" column)`);
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
  throw new Error(`Load on ${url} had ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx (${codes})`);
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const difference = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : b - a);
