// Boots the real application in-process against the test database; tables are emptied between tests.
import type { INestApplication } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { createApp } from '../../src/app.setup.js';
import { advanceCredentialCacheClock } from '../../src/auth/credential-cache.js';
import { APP_CONFIG, type AppConfig, loadConfig } from '../../src/config/app.config.js';
import { runMigrations } from '../../src/database/migrate.js';
import { emptyTablesStatement } from './empty-tables.js';

export const PUBLIC_URL = 'https://receivables.test';

/** Documents written by the tests of this run (a folder per test process). */
export const TEST_DATA_DIR = join(tmpdir(), `receivables-test-data-${process.pid}`);

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    ...loadConfig({ APP_ENV: 'test', PUBLIC_URL, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', DATA_DIR: TEST_DATA_DIR }),
    ...overrides,
  };
}

export function testDatabaseUrl(): string {
  const url = process.env.TEST_DB_URL;
  if (!url) throw new Error('TEST_DB_URL is not set: the global test setup did not run');
  return url;
}

export async function startTestApp(overrides: Partial<AppConfig> = {}): Promise<INestApplication> {
  await runMigrations(testDatabaseUrl());
  if (!emptied) await emptyBeforeStart();
  emptied = true;
  const app = await createApp(testConfig(overrides), testDatabaseUrl());
  await app.init();
  // Each app starts with no rate-limit counts, as when they were in its memory: the counters are shared
  // through the database now, and a suite starts apps with other limits (withoutRateLimits) in turn.
  await dataSource(app).query('DELETE FROM rate_limit_counters');
  return app;
}

/**
 * The suites share one database and run one after another in one process. Work an earlier suite left
 * queued (a delivery retry, say) would otherwise be taken by this app's workers the moment they start,
 * before the first test's reset, and land in this suite's SMTP server or counts. Jest gives each suite
 * its own module registry, so this runs once per suite, before its first app.
 */
let emptied = false;
async function emptyBeforeStart(): Promise<void> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    const [{ boss }] = (await client.query(`SELECT to_regclass('pgboss.job') IS NOT NULL AS boss`)).rows;
    await client.query(await emptyTables((text) => client.query(text).then((result) => result.rows), boss));
  } finally {
    await client.end();
  }
}

/**
 * Moves the process's cache of credential lookups (API_TOKEN_CACHE_SECONDS, API_KEY_CACHE_SECONDS) past
 * its time; it holds the company's name and time zone with the token: after a change made by hand in the
 * database, as an operator (or another replica) would, the next request sees it.
 */
export function afterCredentialCache(app: INestApplication): void {
  const config = app.get<AppConfig>(APP_CONFIG);
  advanceCredentialCacheClock(Math.max(config.tokenCacheSeconds, config.integration.apiKeys.cacheSeconds) * 1000 + 1);
}

export function dataSource(app: INestApplication): DataSource {
  return app.get<DataSource>(getDataSourceToken());
}

/** Built once per suite (jest's module registry), after its first migration run; with the job queue once pg-boss's migration made it. */
const statements = new Map<boolean, Promise<string>>();
function emptyTables(query: Parameters<typeof emptyTablesStatement>[0], withJobs: boolean): Promise<string> {
  if (!statements.has(withJobs)) statements.set(withJobs, emptyTablesStatement(query, withJobs));
  return statements.get(withJobs)!;
}

/**
 * Empties every table between tests. The app's background work (pg-boss maintenance, scheduled pulls and
 * runs, the push queue) can take the same locks in another order, so a deadlock (40P01) is tried again.
 */
export async function resetDatabase(app: INestApplication): Promise<void> {
  const statement = await emptyTables((text) => dataSource(app).query(text), true);
  for (let attempt = 1; ; attempt++) {
    try {
      return void (await dataSource(app).query(statement));
    } catch (error) {
      if (attempt >= 5 || (error as { driverError?: { code?: string } }).driverError?.code !== '40P01') throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

export interface TestCompany {
  id: string;
  name: string;
  token: string;
  apiKey: string;
  auth: string;
}

let companySeq = 0;

/** Registers a company through the public API and returns its credentials. */
export async function registerCompany(app: INestApplication, name = `Firma ${++companySeq}`): Promise<TestCompany> {
  const res = await request(app.getHttpServer())
    .post('/api/v1/registrations')
    .type('form')
    .send({ company_name: name, email: `owner${companySeq}-${Date.now()}@example.com`, password: 'Sicher!Passwort1' })
    .expect(201);
  return {
    id: res.body.company.id,
    name,
    token: res.body.api_token,
    apiKey: res.body.api_key,
    auth: `Token token=${res.body.api_token}`,
  };
}

/**
 * Passport keeps its strategies in one process-wide registry, so the last app started in a process
 * answers for all. Tests that start a second app (a second replica) hand the registry back afterwards.
 */
export async function reclaimPassport(app: INestApplication): Promise<void> {
  type passport = import('passport').PassportStatic;
  const { TokenStrategy } = await import('../../src/auth/token.strategy.js');
  const { ApiKeyStrategy } = await import('../../src/api-keys/api-key.strategy.js');
  const { BearerTokenStrategy } = await import('../../src/oauth/bearer.strategy.js');
  const strategies = { token: TokenStrategy, apikey: ApiKeyStrategy, bearer: BearerTokenStrategy };
  for (const [name, type] of Object.entries(strategies)) {
    const strategy = app.get<InstanceType<typeof type> & { getPassportInstance(): passport }>(type);
    strategy.getPassportInstance().use(name, strategy);
  }
}
