// Opt-in (`npm run bench -- customers-ablation`): where the service's time per request goes. The
// customers load again, against the service (LOG_LEVEL=info > /dev/null, as in production) with one
// part switched off at a time, and with all of them off; the bare server runs alongside as reference.
//
// Made for a shared, noisy machine: instead of one long run per server, every server gets many short
// slices, interleaved in a new random order each cycle, and each slice's req/s is compared with the
// bare server's slice of the same cycle. Another job slows every server of a cycle alike; medians over
// the cycles keep what remains. The server's CPU per request (its own cost) is the figure to read.
import type { BenchContext, Scenario, ScenarioReport } from '../scenario.js';
import { type LoadFigures, measureLoad, medianOf as median } from '../support/load.js';
import { shuffled } from '../support/read-comparison.js';
import { bare, CONNECTIONS, endpoints, PUBLIC_URL, type ServerUnderTest, startServers } from './customers.js';

export const SWITCHES = ['accessLog', 'requestContext', 'rateLimit', 'express'] as const;
export type Switch = (typeof SWITCHES)[number];

export interface AblationServerOptions {
  databaseUrl: string;
  env: Record<string, string>;
  /** 'hotReads' off: the hot reads go through Nest's router, as before src/http/hot-reads. */
  off: Array<Switch | 'hotReads'>;
}

const WHAT: Record<Switch, string> = {
  accessLog: 'HTTP logger: access line (request id and request logger kept)',
  requestContext: 'AsyncLocalStorage request context (request-logger.ts binding)',
  rateLimit: 'the rate limit (RequestQuota)',
  express: "Express's app.handle and middleware walk (hot reads called from the server)",
};

const SLICE_SEC = 2;
const MIN_SLICES = 10;

const variant = (key: string, label: string, off: AblationServerOptions['off']): ServerUnderTest => ({
  key,
  label,
  entry: new URL('./customers.ablation-server.js', import.meta.url),
  options: (databaseUrl): AblationServerOptions => ({ databaseUrl, env: { LOG_LEVEL: 'info', PUBLIC_URL }, off }),
});

const variants = [
  variant('service', 'service as built', []),
  variant('nest', "service with its hot reads left to Nest's router", ['hotReads']),
  ...SWITCHES.map((s) => variant(`without_${s}`, `without ${WHAT[s]}`, [s])),
  variant('without_all', 'without all of the above', [...SWITCHES]),
];

interface Slice {
  figures: LoadFigures;
  /** req/s against the bare server's in the same cycle. */
  ratio: number;
}

export const customersAblationScenario: Scenario = {
  name: 'customers-ablation',
  summary: `the customers load on the service with one part switched off at a time, in interleaved ${SLICE_SEC} s slices (opt-in)`,
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const servers = [bare, ...variants];
    const { children, headers, paths, bodies, stop } = await startServers(ctx, servers);
    const slices = Math.max(MIN_SLICES, ctx.options.rounds);
    const results: Record<string, Record<string, Slice[]>> = Object.fromEntries(servers.map((s) => [s.key, { get: [], list: [] }]));
    try {
      for (const [i, endpoint] of endpoints.entries()) {
        const load = (server: ServerUnderTest, durationSec: number, quietWaitSec = 0) => {
          const child = children.get(server)!;
          return measureLoad(child.origin + paths[i], {
            connections: CONNECTIONS,
            durationSec,
            warmupSec: 0,
            headers,
            drainMs: 250,
            serverCpuMs: () => child.cpuMs(),
            databaseCpuMs: () => ctx.server.cpuMs(),
            quietWaitSec,
            log: ctx.log,
          });
        };
        if (ctx.options.warmupSec > 0) for (const server of servers) await load(server, ctx.options.warmupSec);
        for (let cycle = 1; cycle <= slices; cycle++) {
          ctx.log(`customers-ablation: ${endpoint.label}: cycle ${cycle}/${slices}`);
          const figures = new Map<ServerUnderTest, LoadFigures>();
          // A cycle starts when other jobs leave the machine alone (bounded); within it, no waiting.
          for (const [n, server] of shuffled(servers).entries()) {
            figures.set(server, await load(server, SLICE_SEC, n === 0 ? ctx.options.quietWaitSec : 0));
          }
          const reference = figures.get(bare)!.requestsPerSec;
          for (const [server, f] of figures) results[server.key][endpoint.key].push({ figures: f, ratio: f.requestsPerSec / reference });
        }
      }
    } finally {
      await stop();
    }
    const rows: Array<Array<string | number>> = [];
    const medians: Record<string, Record<string, object>> = {};
    for (const endpoint of endpoints) {
      const serverCpu = (key: string) => median(results[key][endpoint.key].map((s) => s.figures.cpuMsPerRequest.server ?? Number.NaN));
      const asBuilt = serverCpu('service');
      for (const server of servers) {
        const of = (pick: (s: Slice) => number | undefined) => median(results[server.key][endpoint.key].map((s) => pick(s) ?? Number.NaN));
        const m = {
          requestsPerSec: Math.round(of((s) => s.figures.requestsPerSec)),
          ratio: of((s) => s.ratio),
          serverMsPerRequest: serverCpu(server.key),
          databaseMsPerRequest: of((s) => s.figures.cpuMsPerRequest.database),
          otherMsPerRequest: of((s) => s.figures.cpuMsPerRequest.other),
          machineBusyPct: of((s) => s.figures.machineBusyPct),
        };
        (medians[server.key] ??= {})[endpoint.key] = m;
        rows.push([
          endpoint.label,
          server.label,
          m.requestsPerSec,
          m.ratio.toFixed(2),
          m.serverMsPerRequest.toFixed(3),
          server === bare ? '' : (m.serverMsPerRequest - asBuilt).toFixed(3),
          fixed(m.databaseMsPerRequest),
          fixed(m.otherMsPerRequest),
          Math.round(m.machineBusyPct),
        ]);
      }
    }
    return {
      table: { columns: ['endpoint', 'server', 'req/s', 'ratio', 'server ms/req', 'Δ', 'pg ms/req', 'other ms/req', 'busy %'], rows },
      notes: [
        `${slices} cycles of ${SLICE_SEC} s slices per endpoint; every figure is the median over the cycles. Response bodies ${bodies.map((b) => `${Buffer.byteLength(b)} B`).join(' / ')}, byte-identical in every variant.`,
        'ratio: req/s against the bare server in the same cycle. Δ: server CPU per request against the service as built (negative: what the part costs).',
        'The switches patch prototypes and the Express stack from the bench; src/ is not changed.',
      ],
      targets: [],
      figures: { sliceSec: SLICE_SEC, cycles: slices, medians, slices: results },
    };
  },
};

const fixed = (n: number) => (Number.isNaN(n) ? '' : n.toFixed(3));
