// Data survives a restart of the service and of its embedded PostgreSQL; production refuses to start
// on a configuration that would lose data or secrets, and says what is missing.
import type { INestApplication } from '@nestjs/common';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { createApp } from '../src/app.setup.js';
import { ConfigError, loadConfig } from '../src/config/app.config.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { runMigrations } from '../src/database/migrate.js';
import { registerCompany, testConfig } from './support/test-app.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** When the server behind the url started: a new value proves a real restart, not a reused process. */
async function postmasterStart(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ started: string }>('SELECT pg_postmaster_start_time()::text AS started');
    return rows[0].started;
  } finally {
    await client.end();
  }
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

describe('restart with the embedded database', () => {
  let dataDir: string;
  let port: number;
  let database: EmbeddedDatabase | undefined;
  let app: INestApplication | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'receivables-restart-'));
    await chmod(dataDir, 0o755); // as root, Postgres runs as `postgres` and must reach its folder
    port = await freePort();
  });
  afterAll(async () => {
    await app?.close();
    await database?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** What `npm start` does without DATABASE_URL: embedded server under DATA_DIR, migrations, the app. */
  async function start(): Promise<{ url: string; applied: string[] }> {
    database = await startEmbeddedPostgres(dataDir, port);
    const applied = await runMigrations(database.url);
    app = await createApp(testConfig({ dataDir, embeddedPgPort: port }), database.url);
    await app.init();
    return { url: database.url, applied };
  }

  async function stop(): Promise<void> {
    await app?.close();
    app = undefined;
    await database?.stop();
    database = undefined;
  }

  it('keeps companies, credentials and customers when the service and its database are stopped and started again', async () => {
    const first = await start();
    expect(first.applied.length).toBeGreaterThan(0);
    const startedFirst = await postmasterStart(first.url);
    const company = await registerCompany(app!, 'Beständig GmbH');
    const created = await request(app!.getHttpServer())
      .post('/api/v1/customers')
      .set('Authorization', company.auth)
      .type('form')
      .send({ name: 'Dauerhaft AG', address_line1: 'Dauerhaft AG', address_line3: 'Lindenweg 3', zip: '80331', city: 'München', country_code: 'DE', external_id: 'ERP-1' })
      .expect(201);

    await stop();
    expect(await answers(first.url)).toBe(false);

    const second = await start();
    expect(second.url).toBe(first.url);
    expect(second.applied).toEqual([]); // the schema is reused, not created again
    expect(await postmasterStart(second.url)).not.toBe(startedFirst);

    const server = app!.getHttpServer();
    const root = await request(server).get('/').set('Authorization', company.auth).expect(200);
    expect(root.body).toEqual({ company: { id: company.id, name: 'Beständig GmbH' } });
    const read = await request(server).get(`/api/v1/customers/${created.body.id}`).set('Authorization', company.auth).expect(200);
    expect(read.body).toEqual(created.body);
    const found = await request(server).get('/api/v1/customers/find/erp-1').set('Authorization', company.auth).expect(200);
    expect(found.body.id).toBe(created.body.id);
    const list = await request(server).get('/api/v1/customers').set('Authorization', company.auth).expect(200);
    expect(list.body.customers.map((c: { id: string }) => c.id)).toEqual([created.body.id]);
  }, 180_000);
});

describe('production configuration', () => {
  const complete = {
    APP_ENV: 'production',
    DATABASE_URL: 'postgres://receivables:db-Pa55word@db.internal:5432/receivables',
    SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
    PUBLIC_URL: 'https://receivables.example.com',
  };

  function refusal(env: Record<string, string | undefined>): ConfigError {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return error as ConfigError;
    }
    throw new Error('loadConfig accepted the configuration');
  }

  it('starts with a database, a secrets key and an https public URL', () => {
    const config = loadConfig(complete);
    expect(config).toMatchObject({ env: 'production', databaseUrl: complete.DATABASE_URL, secretsKey: complete.SECRETS_KEY, publicUrl: complete.PUBLIC_URL });
  });

  it('names every missing setting at once', () => {
    const { message } = refusal({ APP_ENV: 'production' });
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('SECRETS_KEY');
    expect(message).toContain('PUBLIC_URL');
  });

  it.each([
    ['DATABASE_URL', 'unset', { DATABASE_URL: undefined }, ['SECRETS_KEY', 'PUBLIC_URL']],
    ['DATABASE_URL', 'empty', { DATABASE_URL: '' }, ['SECRETS_KEY', 'PUBLIC_URL']],
    ['SECRETS_KEY', 'unset', { SECRETS_KEY: undefined }, ['DATABASE_URL', 'PUBLIC_URL']],
    ['PUBLIC_URL', 'unset', { PUBLIC_URL: undefined }, ['DATABASE_URL', 'SECRETS_KEY']],
    ['PUBLIC_URL', 'http://', { PUBLIC_URL: 'http://receivables.example.com' }, ['DATABASE_URL', 'SECRETS_KEY']],
  ])('refuses with %s %s and names only that', (missing, _how, change, present) => {
    const { message } = refusal({ ...complete, ...change });
    expect(message).toContain(missing);
    for (const name of present) expect(message).not.toContain(name);
  });

  it('does not repeat secrets in the message', () => {
    const { message } = refusal({ ...complete, PUBLIC_URL: undefined });
    expect(message).not.toContain('db-Pa55word');
    expect(message).not.toContain(complete.SECRETS_KEY);
  });

  it('lets development start without any of them', () => {
    expect(loadConfig({})).toMatchObject({ env: 'development', databaseUrl: undefined, secretsKey: undefined });
  });
});
