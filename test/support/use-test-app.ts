// The set-up of a suite that tests one app in-process: registers the jest hooks that start the app, empty
// the tables (and register a company) and close it, and hands out what the tests use.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../src/config/app.config.js';
import { dataSource, registerCompany, resetDatabase, startTestApp, type TestCompany } from './test-app.js';

export interface TestAppOptions {
  /** When the tables are emptied: before each test (the default), once before the suite's first test, or only when a test calls t.reset(). */
  reset?: 'each' | 'once' | 'manual';
  /** Registers a company after each reset (t.company). */
  company?: boolean;
}

export interface TestApp {
  readonly app: INestApplication;
  /** A supertest client of the app's server, new at each read: `t.http.get('/api/v1/customers')`. */
  readonly http: ReturnType<typeof request>;
  readonly db: DataSource;
  /** The company registered after the last reset (with `company: true`). */
  readonly company: TestCompany;
  /** What runs before each test, once more within a test: empties the tables (and registers t.company). */
  reset(): Promise<void>;
}

/**
 * Call at the top of a describe block (or file). `config` is applied over the test configuration; a
 * function is called in the app's beforeAll, after the hooks registered before useTestApp (a server the
 * config has to name, say). Jest runs the hooks of a block in the order they are registered, the after
 * hooks too: a suite's own beforeEach sees the emptied tables and t.company, and its afterAll registered
 * after useTestApp runs once the app is closed (register one before it to act while the app still runs).
 */
export function useTestApp(config: Partial<AppConfig> | (() => Partial<AppConfig>) = {}, options: TestAppOptions = {}): TestApp {
  const { reset = 'each', company: withCompany = false } = options;
  let app: INestApplication | undefined;
  let company: TestCompany | undefined;
  const started = (): INestApplication => {
    if (!app) throw new Error('useTestApp: the app is started in beforeAll; use it inside hooks and tests');
    return app;
  };
  const prepare = async () => {
    await resetDatabase(started());
    if (withCompany) company = await registerCompany(started());
  };

  beforeAll(async () => {
    app = await startTestApp(typeof config === 'function' ? config() : config);
    if (reset === 'once') await prepare();
  });
  afterAll(async () => app?.close());
  if (reset === 'each') beforeEach(prepare);

  return {
    get app() {
      return started();
    },
    get http() {
      return request(started().getHttpServer());
    },
    get db() {
      return dataSource(started());
    },
    get company() {
      if (!company) throw new Error('useTestApp: pass { company: true } for a company registered after each reset');
      return company;
    },
    reset: prepare,
  };
}
