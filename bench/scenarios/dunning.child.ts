// The dunning bench's measuring process: seeds, times the hand-written statement (rolled back), then
// the real dunning runs of all companies through the service code, sampling this process's RSS.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import pg from 'pg';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/config/app.config.js';
import { DunningRunService } from '../../src/dunning/dunning-run.service.js';
import { BUSINESS_DATE, COMPANIES, HAND_WRITTEN_RUN, companyId, seed } from './dunning.seed.js';

export interface DunningResult {
  invoices: number;
  seedMs: number;
  handWrittenMs: number;
  handWrittenRows: number;
  runMs: number;
  transitions: Record<string, number>;
  peakRssMb: number;
  baselineRssMb: number;
  /** True when the service's runs leave every invoice in the status the hand-written statement gives it. */
  sameStatuses: boolean;
  differing: number;
}

/** A fingerprint of every invoice's status, to compare the two ways of running without keeping 1,000,000 rows here. */
const STATUSES = `SELECT status, count(*)::int AS n, sum(hashtext(id::text))::text AS h FROM invoices GROUP BY status ORDER BY status`;
type StatusRow = { status: string; n: number; h: string };

/**
 * Both timed parts start from the same steady state, the one a daily run meets on an autovacuumed
 * table: no dead rows (the rolled-back statement leaves one per row it moved), hint bits set, and no
 * dirty buffers left for the timed part to write out.
 */
async function settle(db: pg.Client): Promise<void> {
  await db.query('VACUUM (ANALYZE) invoices, reminders, invoice_events, customers');
  await db.query('CHECKPOINT');
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function main(url: string): Promise<DunningResult> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  let started = Date.now();
  await seed(db);
  const seedMs = Date.now() - started;
  const invoices = Number((await db.query<{ count: string }>('SELECT count(*) FROM invoices')).rows[0].count);

  await settle(db);
  await db.query('BEGIN');
  started = Date.now();
  const hand = await db.query(HAND_WRITTEN_RUN);
  const handWrittenMs = Date.now() - started;
  const expected = (await db.query<StatusRow>(STATUSES)).rows;
  await db.query('ROLLBACK');
  await settle(db);

  const base = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'https://receivables.bench' });
  const config = { ...base, jobs: { ...base.jobs, schedule: false, supervise: false } };
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, url), { logger: false });
  const runner = app.get(DunningRunService);
  const baselineRssMb = mb(process.memoryUsage().rss);
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const transitions: Record<string, number> = {};
  started = Date.now();
  for (let n = 1; n <= COMPANIES; n++) {
    const run = await runner.run(companyId(n), BUSINESS_DATE, 'api');
    if (!run || run.status !== 'succeeded') throw new Error(`run of company ${n} failed: ${JSON.stringify(run?.errors)}`);
    for (const [action, count] of Object.entries(run.transitions)) transitions[action] = (transitions[action] ?? 0) + count;
  }
  const runMs = Date.now() - started;
  clearInterval(sampler);
  await app.close();
  const actual = (await db.query<StatusRow>(STATUSES)).rows;
  await db.end();
  const key = (r: StatusRow) => `${r.status}:${r.n}:${r.h}`;
  const differing = actual.filter((r) => !expected.some((e) => key(e) === key(r))).length;
  const sameStatuses = differing === 0 && actual.length === expected.length;
  return {
    invoices,
    seedMs,
    handWrittenMs,
    handWrittenRows: hand.rowCount ?? 0,
    runMs,
    transitions,
    peakRssMb: mb(peak),
    baselineRssMb,
    sameStatuses,
    differing,
  };
}

main(process.argv[2]).then(
  (result) => {
    process.send?.(result);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
