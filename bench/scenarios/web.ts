// Issue 19: the web app with 100,000 invoices in one company (web.seed.ts). A signed-in browser session
// asks for the dashboard and the invoice list (page 1, filtered and sorted, a deep page, searches) at
// low concurrency; measured is each page's latency p50/p95/p99 over loopback (the server's time plus
// well under a millisecond), and the server's and PostgreSQL's CPU per page. Target: p95 < 150 ms.
// Then the whole list once as CSV (streamed): time, size and the service's peak RSS.
import type { BenchContext, Scenario, ScenarioReport } from '../scenario.js';
import { startChildServer } from '../support/child-server.js';
import { CUSTOMERS, INVOICES, seedWeb } from './web.seed.js';
import { type Session, signIn, timedGets } from './web.session.js';

const CONNECTIONS = 2;
const TARGET_P95_MS = 150;

export const webScenario: Scenario = {
  name: 'web',
  summary: `dashboard and invoice list with ${INVOICES.toLocaleString('en')} invoices in one company, ${CONNECTIONS} connections: p95 < ${TARGET_P95_MS} ms; the whole list as CSV`,
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const databaseUrl = await ctx.server.freshDatabase('web');
    const env = { LOG_LEVEL: 'silent', PUBLIC_URL: 'https://receivables.bench', FAILED_AUTH_PER_MINUTE: '1000000' };
    const dir = ctx.options.profileDir;
    const execArgv = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-name=web-service.cpuprofile'] : [];
    const child = await startChildServer(new URL('../support/service-server.js', import.meta.url), { databaseUrl, env }, { execArgv });
    let stopped = false;
    try {
      const session: Session = await signIn(child.origin, async (companyId) => {
        ctx.log(`web: seeding ${INVOICES} invoices of ${CUSTOMERS} customers`);
        const started = Date.now();
        await seedWeb(databaseUrl, companyId);
        ctx.log(`web: seeded in ${Date.now() - started} ms`);
      });
      const pages: Array<[string, string]> = [
        ['dashboard', '/dashboard'],
        ['invoices, page 1 (newest first)', '/invoices'],
        ['invoices, overdue by open amount', '/invoices?status=overdue&sort=open_amount&dir=desc'],
        ['invoices, deep page (1,900 of 2,000)', '/invoices?page=1900'],
        ['invoices, customer sorted by name, page 500', '/invoices?sort=customer&dir=asc&page=500'],
        ['invoices, search by number', '/invoices?q=RE-0421'],
        ['invoices, search by customer name', '/invoices?q=weber%20123'],
        ['invoices, one customer by due date', `/invoices?customer=${session.customerId}&sort=due_date&dir=asc`],
      ];
      const rows: Array<Array<string | number>> = [];
      const figures: Record<string, unknown> = { invoices: INVOICES, customers: CUSTOMERS, connections: CONNECTIONS };
      const measured: Array<{ name: string; p95: number }> = [];
      for (const [name, path] of pages) {
        ctx.log(`web: ${name} (${path})`);
        const cpu = { server: await child.cpuMs(), database: ctx.server.cpuMs() };
        const run = await timedGets(`${child.origin}${path}`, session.cookie, {
          connections: CONNECTIONS,
          warmupSec: ctx.options.warmupSec,
          durationSec: ctx.options.durationSec,
        });
        const serverMs = ((await child.cpuMs()) - cpu.server) / run.total;
        const databaseMs = ((ctx.server.cpuMs() ?? 0) - (cpu.database ?? 0)) / run.total;
        rows.push([name, run.count, run.p50, run.p95, run.p99, round2(serverMs), cpu.database === undefined ? '' : round2(databaseMs)]);
        figures[path] = { ...run, serverCpuMs: round2(serverMs), databaseCpuMs: round2(databaseMs) };
        measured.push({ name, p95: run.p95 });
      }
      ctx.log('web: the whole list as CSV');
      const started = Date.now();
      const csv = await fetch(`${child.origin}/invoices/export.csv`, { headers: { cookie: session.cookie } });
      const bytes = Buffer.byteLength(await csv.text());
      const exportMs = Date.now() - started;
      if (csv.status !== 200) throw new Error(`export answered ${csv.status}`);
      stopped = true;
      const { peakRssMb } = await child.stop();
      figures.export = { ms: exportMs, bytes, peakRssMb };
      const slowest = measured.reduce((a, b) => (b.p95 > a.p95 ? b : a));
      return {
        table: { columns: ['page', 'requests', 'p50 ms', 'p95 ms', 'p99 ms', 'server CPU ms/req', 'PostgreSQL CPU ms/req'], rows },
        notes: [
          `latency measured at the client over loopback, ${CONNECTIONS} connections, ${ctx.options.durationSec} s per page after ${ctx.options.warmupSec} s of warm-up`,
          `CSV export of all ${INVOICES.toLocaleString('en')} invoices: ${exportMs} ms, ${(bytes / 1e6).toFixed(1)} MB; peak RSS of the service ${peakRssMb} MB`,
        ],
        targets: [
          {
            name: `every page p95 < ${TARGET_P95_MS} ms`,
            met: slowest.p95 < TARGET_P95_MS,
            detail: `slowest: ${slowest.name} ${slowest.p95} ms`,
          },
        ],
        figures,
      };
    } finally {
      if (!stopped) await child.stop().catch(() => undefined);
    }
  },
};

const round2 = (n: number) => Math.round(n * 100) / 100;
