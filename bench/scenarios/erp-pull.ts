// Issue 6: a first pull of 100,000 open receivable items and 10,000 business partners from the local
// SAP stand-in (OData V2 over HTTPS, OAuth client credentials, server pages of 1000 inside $top
// windows of 5000), against merely downloading the same pages. Targets: the pull under 60 s, at most
// 1.5× the download, peak RSS of the pulling process under 300 MB.
//
// The stand-in runs in the bench's main process; the download and the pull each run in a child
// process of their own (bench/scenarios/erp-pull.task.ts), so that time, CPU and peak RSS are theirs.
// "Download" is the service's ODataClient reading and parsing every page (what any consumer must do),
// and — shown for reference — the same requests once more with the bodies read as bytes only.
import type { BenchContext, Scenario, ScenarioReport, Target } from '../scenario.js';
import { runChildTask, type TaskOutcome } from '../support/child-task.js';
import { makeErpPki } from '../../test/support/pki.js';
import { generateData, SapODataServer } from '../../test/support/sap-odata-server.js';
import type { DownloadResult, ErpTaskOptions, PullRound } from './erp-pull.task.js';

const ITEMS = 100_000;
const PARTNERS = 10_000;
const PAGE_SIZE = 5000;
const SERVER_PAGE = 1000;
const TARGET_SECONDS = 60;
const TARGET_RATIO = 1.5;
const TARGET_RSS_MB = 300;
const TASK = new URL('./erp-pull.task.js', import.meta.url);

export const erpPullScenario: Scenario = {
  name: 'erp-pull',
  summary: `first pull of ${ITEMS.toLocaleString('en')} receivable items + ${PARTNERS.toLocaleString('en')} customers vs. downloading the same pages (targets < ${TARGET_SECONDS} s, ≤ ${TARGET_RATIO}×, RSS < ${TARGET_RSS_MB} MB)`,
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const pki = makeErpPki();
    const server = new SapODataServer({ pki, version: 'v2', auth: 'oauth', clientId: 'BENCH_CC', clientSecret: 'Bench-Secret!1', serverPageSize: SERVER_PAGE });
    const data = generateData(PARTNERS, ITEMS);
    server.partners = data.partners;
    server.items = data.items;
    await server.start();
    try {
      const base: ErpTaskOptions = { mode: 'download', origin: server.origin, ca: pki.ca, clientId: 'BENCH_CC', clientSecret: 'Bench-Secret!1', pageSize: PAGE_SIZE };
      ctx.log('erp-pull: warming the stand-in (first filter and sort of the data)');
      await runChildTask<DownloadResult>(TASK, base);
      const downloads: Array<TaskOutcome<DownloadResult>> = [];
      const pulls: PullMeasure[] = [];
      for (let round = 1; round <= ctx.options.rounds; round++) {
        ctx.log(`erp-pull: round ${round}/${ctx.options.rounds}: download only`);
        downloads.push(await runChildTask<DownloadResult>(TASK, base));
        const databaseUrl = await ctx.server.freshDatabase(`erp_pull_${round}`);
        ctx.log(`erp-pull: round ${round}/${ctx.options.rounds}: first pull into a fresh database`);
        const first = await measured(ctx, () => runChildTask<PullRound>(TASK, { ...base, mode: 'pull', databaseUrl }));
        ctx.log(`erp-pull: round ${round}/${ctx.options.rounds}: the same pull again`);
        const repeated = await measured(ctx, () => runChildTask<PullRound>(TASK, { ...base, mode: 'pull', databaseUrl, repeat: true }));
        pulls.push({ first, repeated });
      }
      return report(medianBy(downloads, (d) => d.result.parsedMs), medianBy(pulls, (p) => p.first.result.ms), ctx.options.rounds);
    } finally {
      await server.stop();
      pki.remove();
    }
  },
};

interface Measured<R> extends TaskOutcome<R> {
  /** CPU the database server used meanwhile (embedded server only). */
  databaseCpuMs?: number;
}

interface PullMeasure {
  first: Measured<PullRound>;
  repeated: Measured<PullRound>;
}

async function measured<R>(ctx: BenchContext, task: () => Promise<TaskOutcome<R>>): Promise<Measured<R>> {
  const before = ctx.server.cpuMs();
  const outcome = await task();
  // The child's connections close as it exits: their backends' CPU counts once the postmaster reaped them.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const after = ctx.server.cpuMs();
  return { ...outcome, databaseCpuMs: before === undefined || after === undefined ? undefined : Math.round(after - before) };
}

function medianBy<T>(runs: T[], key: (run: T) => number): T {
  return [...runs].sort((a, b) => key(a) - key(b))[Math.floor((runs.length - 1) / 2)];
}

function report(download: TaskOutcome<DownloadResult>, pull: PullMeasure, rounds: number): ScenarioReport {
  const first = pull.first.result;
  const repeated = pull.repeated.result;
  const d = download.result;
  const ratio = Math.round((first.ms / d.parsedMs) * 100) / 100;
  const rawRatio = Math.round((first.ms / d.rawMs) * 100) / 100;
  const records = ITEMS + PARTNERS;
  const targets: Target[] = [
    { name: `first pull < ${TARGET_SECONDS} s`, met: first.status === 'succeeded' && first.ms < TARGET_SECONDS * 1000, detail: `${(first.ms / 1000).toFixed(1)} s, ${first.status}` },
    { name: `first pull ≤ ${TARGET_RATIO}× the download of the same pages`, met: ratio <= TARGET_RATIO, detail: `${ratio}× (${rawRatio}× the raw byte transfer)` },
    { name: `peak RSS of the pulling process < ${TARGET_RSS_MB} MB`, met: pull.first.peakRssMb < TARGET_RSS_MB, detail: `${pull.first.peakRssMb} MB` },
  ];
  const perRecord = (ms: number | undefined) => (ms === undefined ? '' : ((ms * 1000) / records).toFixed(0));
  const row = (label: string, ms: number, rss: number | string, cpu: number | undefined, pg: number | undefined, note: string) => [
    label,
    (ms / 1000).toFixed(2),
    Math.round(records / (ms / 1000)),
    rss,
    perRecord(cpu),
    perRecord(pg),
    note,
  ];
  return {
    table: {
      columns: ['what', 's', 'records/s', 'peak RSS MB', 'node µs/rec', 'pg µs/rec', 'note'],
      rows: [
        row('download, raw bytes', d.rawMs, '', undefined, undefined, `${d.requests} requests, ${(d.bytes / 2 ** 20).toFixed(0)} MiB`),
        row('download, parsed (ODataClient)', d.parsedMs, download.peakRssMb, download.cpuMs, undefined, `${d.records} records`),
        row('first pull', first.ms, pull.first.peakRssMb, pull.first.cpuMs, pull.first.databaseCpuMs, `${first.created} created, ${first.failed} failed, ${first.pages} pages, ${first.requests} requests`),
        row('repeated pull', repeated.ms, pull.repeated.peakRssMb, pull.repeated.cpuMs, pull.repeated.databaseCpuMs, `${repeated.unchanged} unchanged, ${repeated.updated} updated, ${repeated.created} created`),
      ],
    },
    notes: [
      `OData V2 over HTTPS (OAuth client credentials), $top windows of ${PAGE_SIZE}, server pages of ${SERVER_PAGE}; the stand-in runs in the bench process, each measured side in a child process.`,
      `${rounds} round(s); with several, the median is shown. A pull includes mapping, set-based upserts (customers, contacts, invoices, events) and run bookkeeping; the first starts from an empty database.`,
      'The repeated pull reads the same records again (watermark − 1 day covers them all) and writes nothing: every record is unchanged.',
      'node µs/rec: CPU of the child process (booting the service included) per record; pg µs/rec: CPU of the embedded PostgreSQL meanwhile.',
    ],
    targets,
    figures: {
      items: ITEMS,
      partners: PARTNERS,
      pageSize: PAGE_SIZE,
      serverPageSize: SERVER_PAGE,
      download: { ...d, peakRssMb: download.peakRssMb, cpuMs: download.cpuMs },
      firstPull: { ...first, peakRssMb: pull.first.peakRssMb, cpuMs: pull.first.cpuMs, databaseCpuMs: pull.first.databaseCpuMs },
      repeatedPull: { ...repeated, peakRssMb: pull.repeated.peakRssMb, cpuMs: pull.repeated.cpuMs, databaseCpuMs: pull.repeated.databaseCpuMs },
      ratio,
      rawRatio,
    },
  };
}
