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
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function main(url: string): Promise<DunningResult> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  let started = Date.now();
  await seed(db);
  const seedMs = Date.now() - started;
  const invoices = Number((await db.query('SELECT count(*) FROM invoices')).rows[0].count);

  await db.query('BEGIN');
  started = Date.now();
  const hand = await db.query(HAND_WRITTEN_RUN);
  const handWrittenMs = Date.now() - started;
  await db.query('ROLLBACK');
  await db.end();

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
  return { invoices, seedMs, handWrittenMs, handWrittenRows: hand.rowCount ?? 0, runMs, transitions, peakRssMb: mb(peak), baselineRssMb };
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
