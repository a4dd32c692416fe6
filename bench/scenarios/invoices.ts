// Issue 3: creating invoices with a 200 KB PDF (POST /api/v1/invoices, multipart as the spec's "Create
// invoice") through the service versus a bare node:http handler that parses the same multipart body
// with busboy, stores the same bytes as the service's local document store does and inserts one
// invoice row, at 32 connections. Target: service/bare requests/s >= 0.5; peak RSS of the service.
//
// Placement as in customers.ts: autocannon in this process, each server in a child process of its own,
// PostgreSQL in its own processes; all servers start first and are loaded one after the other. Every
// request carries its own external_id and invoice number (a sequence number in the body), so none is
// refused as a duplicate. Both sides write their documents to folders in the same temp directory (same
// file system, each file fsynced with its folder); the stored files are removed after each run.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { parsePublicId } from '../../src/common/ids.js';
import { dataSourceOptions } from '../../src/database/data-source.js';
import type { BenchContext, Scenario, ScenarioReport, Target } from '../scenario.js';
import { type ChildServer, startChildServer } from '../support/child-server.js';
import { type LoadFigures, measureLoad } from '../support/load.js';
import type { InvoicesBareServerOptions } from './invoices.bare-server.js';
import { makePdf, multipartTemplate } from './invoices.body.js';
import { seedInvoices } from './invoices.seed.js';

const CONNECTIONS = 32;
const PDF_BYTES = 200 * 1024;
const TARGET_RATIO = 0.5;
const PUBLIC_URL = 'https://receivables.bench';
const PATH = '/api/v1/invoices';

interface ServerUnderTest {
  key: string;
  label: string;
  entry: URL;
  options(databaseUrl: string, dataDir: string): object;
  /** Where it stores the documents, below its data folder. */
  documentsDir(dataDir: string): string;
}

const bare: ServerUnderTest = {
  key: 'bare',
  label: 'bare node:http + busboy + pg',
  entry: new URL('./invoices.bare-server.js', import.meta.url),
  options: (databaseUrl, dataDir): InvoicesBareServerOptions => ({
    databaseUrl,
    poolSize: poolSizeOf(databaseUrl),
    documentsDir: join(dataDir, 'documents'),
  }),
  documentsDir: (dataDir) => join(dataDir, 'documents'),
};

/** The real service (local document store under DATA_DIR), without logs and logging at info into /dev/null. */
const services: ServerUnderTest[] = ['silent', 'info'].map((level) => ({
  key: `service_log_${level}`,
  label: `service, LOG_LEVEL=${level}${level === 'silent' ? '' : ' > /dev/null'}`,
  entry: new URL('../support/service-server.js', import.meta.url),
  options: (databaseUrl, dataDir) => ({
    databaseUrl,
    env: { LOG_LEVEL: level, PUBLIC_URL, DATA_DIR: dataDir, DOCUMENT_STORE: 'local', UPLOAD_TMP_DIR: join(dataDir, 'uploads') },
  }),
  documentsDir: (dataDir) => join(dataDir, 'documents'),
}));

const servers = [bare, ...services];

function poolSizeOf(databaseUrl: string): number {
  const extra = dataSourceOptions(databaseUrl).extra as { max?: number } | undefined;
  return extra?.max ?? 10;
}

export const invoicesScenario: Scenario = {
  name: 'invoices',
  summary: `POST /api/v1/invoices (multipart, ${PDF_BYTES / 1024} KB PDF) at ${CONNECTIONS} connections: service vs bare node:http + busboy + pg (target ratio >= ${TARGET_RATIO})`,
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const databaseUrl = await ctx.server.freshDatabase('invoices');
    const seed = await seedInvoices(databaseUrl);
    const pdf = await makePdf(PDF_BYTES);
    const form = multipartTemplate(seed.customerId, pdf);
    let seq = 1;
    const headers = { authorization: `Token token=${seed.token}`, 'content-type': form.contentType };
    const root = await mkdtemp(join(tmpdir(), 'receivables-bench-invoices-'));
    const dataDirs = new Map(servers.map((s) => [s, join(root, s.key)]));
    const children = new Map<ServerUnderTest, ChildServer>();
    const runs: Record<string, LoadFigures[]> = Object.fromEntries(servers.map((s) => [s.key, []]));
    const peakRssMb: Record<string, number> = {};
    const responses: Record<string, string> = {};
    const { durationSec, warmupSec, quietWaitSec } = ctx.options;
    // At least one round per server, so that every server runs in every place (see the rounds below).
    const rounds = Math.max(ctx.options.rounds, servers.length);
    try {
      for (const server of servers) {
        ctx.log(`invoices: starting ${server.label}`);
        const options = server.options(databaseUrl, dataDirs.get(server)!);
        children.set(server, await startChildServer(server.entry, options, { execArgv: profileFlags(ctx, server.key) }));
      }
      // One request each first: a 201, and the document stored is the PDF that was sent, byte for byte.
      for (const server of servers) {
        const { status, body } = await post(children.get(server)!.origin + PATH, headers, form.body(seq++));
        if (status !== 201) throw new Error(`${server.label}: POST ${PATH} answered ${status}: ${body.slice(0, 500)}`);
        const id = parsePublicId('inv', (JSON.parse(body) as { invoice: { id: string } }).invoice.id);
        const stored = await readFile(
          join(server.documentsDir(dataDirs.get(server)!), seed.companyId, 'invoices', id ?? '?', 'invoice.pdf'),
        );
        if (!stored.equals(pdf)) throw new Error(`${server.label}: the stored document differs from the PDF sent`);
        responses[server.key] = body;
      }
      for (let round = 1; round <= rounds; round++) {
        // Each round starts one server later: a server run after another one's gigabytes of uploads pays
        // for some of them (directory and journal work, writeback), so with as many rounds as servers
        // every server takes every place once.
        for (const server of [...servers.slice((round - 1) % servers.length), ...servers.slice(0, (round - 1) % servers.length)]) {
          const child = children.get(server)!;
          ctx.log(`invoices: round ${round}/${rounds}: ${server.label} (${warmupSec} s warm-up, ${durationSec} s)`);
          runs[server.key].push(
            await measureLoad(child.origin + PATH, {
              connections: CONNECTIONS,
              durationSec,
              warmupSec,
              method: 'POST',
              headers,
              nextBody: () => form.body(seq++),
              serverCpuMs: () => child.cpuMs(),
              databaseCpuMs: () => ctx.server.cpuMs(),
              quietWaitSec,
              log: ctx.log,
            }),
          );
          // Requests still in flight finish first; then the documents go, so the disk does not fill up,
          // and the disk writes back what this run left dirty (a run stores a gigabyte or more): the next
          // server's fsyncs would otherwise wait for this one's data, and its CPU pay for the writeback.
          await sleep(1000);
          await rm(join(server.documentsDir(dataDirs.get(server)!), seed.companyId), { recursive: true, force: true });
          await syncDisk();
        }
      }
    } finally {
      for (const [server, child] of children)
        peakRssMb[server.key] = await child.stop().then(
          (r) => r.peakRssMb,
          () => Number.NaN,
        );
      await rm(root, { recursive: true, force: true });
    }
    return report(runs, peakRssMb, responses, form.pdfBytes, seq - 1);
  },
};

/** sync(1): every dirty page of the machine written back. */
const syncDisk = () => promisify(execFile)('sync').then(() => undefined);

/** The run with the median requests/s (the lower middle one for an even count). */
function median(runs: LoadFigures[]): LoadFigures {
  const sorted = [...runs].sort((a, b) => a.requestsPerSec - b.requestsPerSec);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function report(
  runs: Record<string, LoadFigures[]>,
  peakRssMb: Record<string, number>,
  responses: Record<string, string>,
  pdfBytes: number,
  sent: number,
): ScenarioReport {
  const base = median(runs.bare);
  const rows: Array<Array<string | number>> = [];
  const targets: Target[] = [];
  const ratios: Record<string, number> = {};
  for (const server of servers) {
    const figures = median(runs[server.key]);
    const exact = figures.requestsPerSec / base.requestsPerSec;
    const ratio = round2(exact);
    if (server !== bare) {
      ratios[server.key] = ratio;
      // Judged on the exact ratio, not the rounded one shown in the table.
      targets.push({ name: `${server.label}: service/bare >= ${TARGET_RATIO}`, met: exact >= TARGET_RATIO, detail: exact.toFixed(3) });
    }
    const cpu = figures.cpuMsPerRequest;
    rows.push([
      server.label,
      figures.requestsPerSec,
      figures.p50Ms,
      figures.p99Ms,
      server === bare ? '' : ratio.toFixed(2),
      ...[cpu.server, cpu.database, cpu.loadGenerator, cpu.other].map((ms) => (ms === undefined ? '' : ms.toFixed(3))),
      figures.machineBusyPct,
      peakRssMb[server.key] ?? '',
    ]);
  }
  return {
    table: {
      columns: [
        'server',
        'req/s',
        'p50 ms',
        'p99 ms',
        'ratio',
        'server ms/req',
        'pg ms/req',
        'load ms/req',
        'other ms/req',
        'busy %',
        'peak RSS MB',
      ],
      rows,
    },
    notes: [
      `${CONNECTIONS} connections; each request a multipart "Create invoice" (customer_id, external_id, invoice_number, amounts, dates) with a ${pdfBytes} B PDF`,
      `  (pdf-lib, padded with random bytes); ${sent} invoices created in all, each with its own external_id. Response bodies: ${servers.map((s) => `${s.key} ${Buffer.byteLength(responses[s.key] ?? '')} B`).join(', ')}.`,
      `${runs.bare.length} round(s); with several, the median run by req/s is shown. Peak RSS: each server process's maximum resident set size.`,
      'ratio = service req/s / bare req/s. CPU ms per request of: the server process, PostgreSQL (embedded only), autocannon, and',
      '  "other" = all cores minus those three (other jobs on the machine, unattributed kernel work, fsync). busy % = all cores during the run.',
    ],
    targets,
    figures: {
      connections: CONNECTIONS,
      pdfBytes,
      targetRatio: TARGET_RATIO,
      invoicesCreated: sent,
      servers: Object.fromEntries(
        servers.map((s) => [s.key, { label: s.label, peakRssMb: peakRssMb[s.key], median: median(runs[s.key]), runs: runs[s.key] }]),
      ),
      ratios,
    },
  };
}

function profileFlags(ctx: BenchContext, key: string): string[] {
  const dir = ctx.options.profileDir;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=invoices-${key}.cpuprofile`] : [];
}

async function post(url: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, body: await res.text() };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
