// Issue 2: reading customers through the service versus a bare node:http + pg handler doing the same
// work (the SQL captured from the service's repositories, the same serializer), at 64 connections.
// Target: service/bare requests/s >= 0.7.
//
// Placement on the 2-core machine: autocannon runs in the bench's main process (one thread), each
// server under test in a child process of its own (one JS thread), PostgreSQL in its own processes.
// All servers start first and are then loaded one at a time, endpoint by endpoint (bare, service,
// service...), so a slow drift of the machine (another job, a warm cache) falls on every side alike.
// Nothing is pinned (taskset): the OS balances load generator, server and PostgreSQL the same way for
// the service and the bare server, so the ratio is fair although the absolute figures are lower than
// with a separate load machine. The server's CPU ms per request is printed as well: it is the cost of
// a request, and it stays meaningful when the machine is shared.
import { dataSourceOptions } from '../../src/database/data-source.js';
import type { BenchContext, Scenario, ScenarioReport, Target } from '../scenario.js';
import { type ChildServer, startChildServer } from '../support/child-server.js';
import { type LoadFigures, measureLoad } from '../support/load.js';
import type { BareServerOptions } from './customers.bare-server.js';
import { captureStatements } from './customers.capture.js';
import { seedCustomers } from './customers.seed.js';
import type { CustomerStatements } from './customers.statements.js';

export const CONNECTIONS = 64;
const CUSTOMERS = 100;
const TARGET_RATIO = 0.7;
export const PUBLIC_URL = 'https://receivables.bench';

export interface ServerUnderTest {
  key: string;
  label: string;
  entry: URL;
  /** What the child process gets: the database and the service's statements (for the bare server). */
  options(databaseUrl: string, statements: CustomerStatements): object;
}

export const bare: ServerUnderTest = {
  key: 'bare',
  label: 'bare node:http + pg',
  entry: new URL('./customers.bare-server.js', import.meta.url),
  // The pool of the service's DataSource, so both sides have as many database connections.
  options: (databaseUrl, statements): BareServerOptions => ({
    databaseUrl,
    publicUrl: PUBLIC_URL,
    poolSize: poolSizeOf(databaseUrl),
    statements,
  }),
};

/** The real service, once without logs and once logging at info (as production does) into /dev/null. */
const services: ServerUnderTest[] = ['silent', 'info'].map((level) => ({
  key: `service_log_${level}`,
  label: `service, LOG_LEVEL=${level}${level === 'silent' ? '' : ' > /dev/null'}`,
  entry: new URL('../support/service-server.js', import.meta.url),
  options: (databaseUrl) => ({ databaseUrl, env: { LOG_LEVEL: level, PUBLIC_URL } }),
}));

const servers = [bare, ...services];

export const endpoints = [
  { key: 'get', label: 'GET /api/v1/customers/<id>', path: (ids: string[]) => `/api/v1/customers/${ids[41]}` },
  { key: 'list', label: 'GET /api/v1/customers?page=2', path: () => '/api/v1/customers?page=2' },
];

function poolSizeOf(databaseUrl: string): number {
  const extra = dataSourceOptions(databaseUrl).extra as { max?: number } | undefined;
  return extra?.max ?? 10;
}

/** server key → endpoint key → one figure per round. */
export type Runs = Record<string, Record<string, LoadFigures[]>>;

export interface Comparison {
  runs: Runs;
  peakRssMb: Record<string, number>;
  /** The bare server's response bodies, one per endpoint. */
  bodies: string[];
}

export interface Started {
  children: Map<ServerUnderTest, ChildServer>;
  headers: Record<string, string>;
  /** One path per endpoint. */
  paths: string[];
  /** The first server's response bodies, one per endpoint; every other server answered the same bytes. */
  bodies: string[];
  /** Stops every server; returns each one's peak RSS (MB) by key. */
  stop: () => Promise<Record<string, number>>;
}

/** Seeds a fresh database, starts every server and checks that they all answer the first one's bytes. */
export async function startServers(ctx: BenchContext, servers: ServerUnderTest[]): Promise<Started> {
  const databaseUrl = await ctx.server.freshDatabase('customers');
  const seed = await seedCustomers(databaseUrl, CUSTOMERS);
  const statements = await captureStatements(databaseUrl, seed.companyId, seed.customerUuids);
  const headers = { authorization: `Token token=${seed.token}` };
  const paths = endpoints.map((e) => e.path(seed.customerIds));
  const children = new Map<ServerUnderTest, ChildServer>();
  const stop = async () => {
    const peakRssMb: Record<string, number> = {};
    // A server that cannot stop cleanly (it crashed) must not keep the others running.
    for (const [server, child] of children)
      peakRssMb[server.key] = await child.stop().then(
        (r) => r.peakRssMb,
        () => Number.NaN,
      );
    return peakRssMb;
  };
  try {
    for (const server of servers) {
      ctx.log(`customers: starting ${server.label}`);
      const options = server.options(databaseUrl, statements);
      children.set(server, await startChildServer(server.entry, options, { execArgv: profileFlags(ctx, server.key) }));
    }
    const bodies: string[] = [];
    for (const [i, path] of paths.entries()) {
      const [reference, ...others] = servers;
      bodies[i] = await fetchBody(children.get(reference)!.origin + path, headers);
      for (const server of others)
        assertSameBody(server.label, path, bodies[i], await fetchBody(children.get(server)!.origin + path, headers));
    }
    return { children, headers, paths, bodies, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Loads the servers one after the other, endpoint by endpoint, for the given rounds (each starting one server later). */
export async function compareServers(ctx: BenchContext, servers: ServerUnderTest[]): Promise<Comparison> {
  const { children, headers, paths, bodies, stop } = await startServers(ctx, servers);
  const { durationSec, warmupSec, rounds, quietWaitSec } = ctx.options;
  const runs: Runs = Object.fromEntries(servers.map((s) => [s.key, Object.fromEntries(endpoints.map((e) => [e.key, []]))]));
  let peakRssMb: Record<string, number>;
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const [i, endpoint] of endpoints.entries()) {
        // Each round starts one server later: with as many rounds as servers, every one runs in every place once.
        const shift = (round - 1) % servers.length;
        for (const server of [...servers.slice(shift), ...servers.slice(0, shift)]) {
          const child = children.get(server)!;
          ctx.log(`customers: round ${round}/${rounds}: ${endpoint.label} on ${server.label} (${warmupSec} s warm-up, ${durationSec} s)`);
          const load = {
            connections: CONNECTIONS,
            durationSec,
            warmupSec,
            headers,
            serverCpuMs: () => child.cpuMs(),
            databaseCpuMs: () => ctx.server.cpuMs(),
            quietWaitSec,
            log: ctx.log,
          };
          runs[server.key][endpoint.key].push(await measureLoad(child.origin + paths[i], load));
        }
      }
    }
  } finally {
    peakRssMb = await stop();
  }
  return { runs, peakRssMb, bodies };
}

export const customersScenario: Scenario = {
  name: 'customers',
  summary: `GET customer / list page 2 at ${CONNECTIONS} connections: service vs bare node:http + pg (target ratio >= ${TARGET_RATIO})`,
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const { runs, peakRssMb, bodies } = await compareServers(ctx, servers);
    return report(runs, peakRssMb, bodies);
  },
};

const CPU_COLUMNS = ['server ms/req', 'pg ms/req', 'load ms/req', 'other ms/req'];

function cpuColumns({ cpuMsPerRequest: cpu }: LoadFigures): string[] {
  return [cpu.server, cpu.database, cpu.loadGenerator, cpu.other].map((ms) => (ms === undefined ? '' : ms.toFixed(3)));
}

/** The run with the median requests/s (the lower middle one for an even count). */
function median(runs: LoadFigures[]): LoadFigures {
  const sorted = [...runs].sort((a, b) => a.requestsPerSec - b.requestsPerSec);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function report(runs: Runs, peakRssMb: Record<string, number>, bodies: string[]): ScenarioReport {
  const rows: Array<Array<string | number>> = [];
  const targets: Target[] = [];
  const ratios: Record<string, Record<string, number>> = {};
  for (const endpoint of endpoints) {
    const base = median(runs.bare[endpoint.key]);
    for (const server of servers) {
      const figures = median(runs[server.key][endpoint.key]);
      const ratio = round2(figures.requestsPerSec / base.requestsPerSec);
      if (server !== bare) {
        (ratios[server.key] ??= {})[endpoint.key] = ratio;
        targets.push({
          name: `${endpoint.label}, ${server.label}: service/bare >= ${TARGET_RATIO}`,
          met: ratio >= TARGET_RATIO,
          detail: `${ratio}`,
        });
      }
      rows.push([
        endpoint.label,
        server.label,
        figures.requestsPerSec,
        figures.p50Ms,
        figures.p99Ms,
        server === bare ? '' : ratio.toFixed(2),
        ...cpuColumns(figures),
        figures.machineBusyPct,
        peakRssMb[server.key] ?? '',
      ]);
    }
  }
  return {
    table: { columns: ['endpoint', 'server', 'req/s', 'p50 ms', 'p99 ms', 'ratio', ...CPU_COLUMNS, 'busy %', 'peak RSS MB'], rows },
    notes: [
      `${CONNECTIONS} connections, ${CUSTOMERS} customers with 2 contacts each; response bodies ${bodies.map((b) => `${Buffer.byteLength(b)} B`).join(' / ')}, byte-identical between service and bare server.`,
      `${runs.bare.get.length} round(s); with several, the median run by req/s is shown.`,
      'ratio = service req/s / bare req/s. CPU ms per request of: the server process, PostgreSQL (embedded only), autocannon, and',
      '  "other" = all cores minus those three (other jobs on the machine, unattributed kernel work). busy % = all cores during the run.',
    ],
    targets,
    figures: {
      connections: CONNECTIONS,
      customers: CUSTOMERS,
      targetRatio: TARGET_RATIO,
      responseBytes: Object.fromEntries(endpoints.map((e, i) => [e.key, Buffer.byteLength(bodies[i] ?? '')])),
      servers: Object.fromEntries(
        servers.map((s) => [
          s.key,
          { label: s.label, peakRssMb: peakRssMb[s.key], median: mapValues(runs[s.key], median), runs: runs[s.key] },
        ]),
      ),
      ratios,
    },
  };
}

function profileFlags(ctx: BenchContext, key: string): string[] {
  const dir = ctx.options.profileDir;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=customers-${key}.cpuprofile`] : [];
}

async function fetchBody(url: string, headers: Record<string, string>): Promise<string> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${body.slice(0, 300)}`);
  return body;
}

/** The comparison is only fair when both servers answer the same bytes. */
function assertSameBody(label: string, path: string, expected: string, actual: string): void {
  if (expected === actual) return;
  let at = 0;
  while (at < expected.length && expected[at] === actual[at]) at++;
  throw new Error(
    `${label} answers GET ${path} differently from the bare server at character ${at}:\n` +
      `  bare:    …${expected.slice(Math.max(0, at - 40), at + 60)}\n  service: …${actual.slice(Math.max(0, at - 40), at + 60)}`,
  );
}

const mapValues = <T, U>(record: Record<string, T>, f: (value: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
const round2 = (n: number) => Math.round(n * 100) / 100;
