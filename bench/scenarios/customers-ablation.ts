// Opt-in (`npm run bench -- customers-ablation`): where the service's time per request goes. The
// customers load again, against the service (LOG_LEVEL=info > /dev/null, as in production) with one
// part switched off at a time, and with all of them off. The bare server runs alongside as reference.
import type { BenchContext, Scenario, ScenarioReport } from '../scenario.js';
import { bare, compareServers, endpoints, median, PUBLIC_URL, type ServerUnderTest } from './customers.js';

export const SWITCHES = ['accessLog', 'requestContext', 'rateLimit', 'passport', 'typeorm', 'etag'] as const;
export type Switch = (typeof SWITCHES)[number];

export interface AblationServerOptions {
  databaseUrl: string;
  env: Record<string, string>;
  off: Switch[];
}

const WHAT: Record<Switch, string> = {
  accessLog: 'pino-http access log (request id + AsyncLocalStorage kept)',
  requestContext: 'whole request-id middleware: pino-http and AsyncLocalStorage',
  rateLimit: 'RateLimitGuard',
  passport: 'passport in CredentialGuard (strategy.validate called directly)',
  typeorm: 'TypeORM for the reads (same SQL through its pg pool)',
  etag: "Express's ETag (app.set('etag', false))",
};

const variant = (key: string, label: string, off: Switch[]): ServerUnderTest => ({
  key,
  label,
  entry: new URL('./customers.ablation-server.js', import.meta.url),
  options: (databaseUrl): AblationServerOptions => ({ databaseUrl, env: { LOG_LEVEL: 'info', PUBLIC_URL }, off }),
});

const variants = [
  variant('service', 'service as built', []),
  ...SWITCHES.map((s) => variant(`without_${s}`, `without ${WHAT[s]}`, [s])),
  variant('without_all', 'without all of the above', [...SWITCHES]),
];

export const customersAblationScenario: Scenario = {
  name: 'customers-ablation',
  summary: 'the customers load on the service with one part switched off at a time (opt-in, for finding the overhead)',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const { runs, bodies } = await compareServers(ctx, [bare, ...variants]);
    const rows: Array<Array<string | number>> = [];
    for (const endpoint of endpoints) {
      const base = median(runs.bare[endpoint.key]);
      const service = median(runs.service[endpoint.key]);
      for (const server of [bare, ...variants]) {
        const figures = median(runs[server.key][endpoint.key]);
        const cpu = figures.serverCpuMsPerRequest ?? 0;
        rows.push([
          endpoint.label,
          server.label,
          figures.requestsPerSec,
          figures.p50Ms,
          (figures.requestsPerSec / base.requestsPerSec).toFixed(2),
          cpu.toFixed(3),
          server === bare ? '' : (cpu - (service.serverCpuMsPerRequest ?? 0)).toFixed(3),
        ]);
      }
    }
    return {
      table: { columns: ['endpoint', 'server', 'req/s', 'p50 ms', 'ratio', 'CPU ms/req', 'Δ CPU vs as built'], rows },
      notes: [
        `Response bodies ${bodies.map((b) => `${Buffer.byteLength(b)} B`).join(' / ')}, byte-identical in every variant.`,
        'The switches patch prototypes and the Express stack from the bench; src/ is not changed. A negative Δ is what the part costs.',
      ],
      targets: [],
      figures: { runs, medians: Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, { get: median(v.get), list: median(v.list) }])) },
    };
  },
};
