// Data survives a restart of the service and of its embedded PostgreSQL; production refuses to start
// on a configuration that would lose data or secrets, and says what is missing.
import type { INestApplication } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { createApp } from '../../src/app.setup.js';
import { ConfigError, loadConfig } from '../../src/config/app.config.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { untraversableFolder } from '../../src/database/folder-access.js';
import { runMigrations } from '../../src/database/migrate.js';
import { registerCompany, testConfig } from '../support/test-app.js';

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
      .send({
        name: 'Dauerhaft AG',
        address_line1: 'Dauerhaft AG',
        address_line3: 'Lindenweg 3',
        zip: '80331',
        city: 'München',
        country_code: 'DE',
        external_id: 'ERP-1',
      })
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

  it("uses its own DATA_DIR's server when it already runs (the CLI next to the service), and nothing else on the port", async () => {
    if (!database) await start();
    const startedAt = await postmasterStart(database!.url);
    // A second process on the same DATA_DIR shares the running server and leaves it running.
    const shared = await startEmbeddedPostgres(dataDir, port);
    expect(shared.url).toBe(database!.url);
    await shared.stop();
    expect(await postmasterStart(database!.url)).toBe(startedAt);

    // Another DATA_DIR on the same port: refused, naming the variable and both folders; nothing created.
    const otherDir = await mkdtemp(join(tmpdir(), 'receivables-other-'));
    try {
      const refused = await startEmbeddedPostgres(otherDir, port).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ConfigError);
      expect((refused as Error).message).toMatch(new RegExp(`^EMBEDDED_PG_PORT ${port} is taken by another PostgreSQL server`));
      expect((refused as Error).message).toContain(join(otherDir, 'postgres'));
      expect(existsSync(join(otherDir, 'postgres'))).toBe(false);
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('embedded database: what keeps it from starting is said clearly', () => {
  it('refuses a port another program listens on, naming EMBEDDED_PG_PORT', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const { port } = squatter.address() as { port: number };
    const dataDir = await mkdtemp(join(tmpdir(), 'receivables-squatted-'));
    try {
      await expect(startEmbeddedPostgres(dataDir, port)).rejects.toThrow(
        new ConfigError(
          `EMBEDDED_PG_PORT ${port} is in use by another program; set EMBEDDED_PG_PORT to a free port (or DATABASE_URL to a server of yours).`,
        ),
      );
    } finally {
      squatter.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('finds the folder a user cannot enter on the way to DATA_DIR', async () => {
    const top = await mkdtemp(join(tmpdir(), 'receivables-access-'));
    const dataDir = join(top, 'deep', 'data');
    await mkdir(dataDir, { recursive: true });
    const stranger = { uid: 4242, gids: [4242] };
    try {
      await chmod(top, 0o700);
      expect(await untraversableFolder(join(dataDir, 'postgres'), stranger)).toBe(top);
      expect(await untraversableFolder(join(dataDir, 'postgres'), { uid: userInfo().uid, gids: [] })).toBeUndefined(); // the owner may
      await chmod(top, 0o701); // others may pass through, not list
      expect(await untraversableFolder(join(dataDir, 'postgres'), stranger)).toBeUndefined();
      await chmod(join(top, 'deep'), 0o750);
      expect(await untraversableFolder(join(dataDir, 'postgres'), stranger)).toBe(join(top, 'deep'));
    } finally {
      await chmod(top, 0o755);
      await chmod(join(top, 'deep'), 0o755);
      await rm(top, { recursive: true, force: true });
    }
  });

  // CI runs as root: `npm start` there with a DATA_DIR under a private folder (a checkout in /root).
  (userInfo().uid === 0 ? it : it.skip)('as root, refuses a DATA_DIR the postgres user cannot reach, saying what to do', async () => {
    const privateHome = await mkdtemp(join(tmpdir(), 'receivables-root-home-'));
    await chmod(privateHome, 0o700);
    const dataDir = join(privateHome, 'checkout', 'data');
    try {
      const refused = await startEmbeddedPostgres(dataDir, await freePort()).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ConfigError);
      const { message } = refused as Error;
      expect(message).toContain(`the embedded PostgreSQL runs as the system user "postgres", which cannot enter ${privateHome}`);
      expect(message).toContain('Set DATA_DIR to a folder outside it');
      expect(message).toContain(`chmod o+x ${privateHome}`);
      expect(message).toContain('DATABASE_URL');
      expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
    } finally {
      await rm(privateHome, { recursive: true, force: true });
    }
  });
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
    expect(config).toMatchObject({
      env: 'production',
      databaseUrl: complete.DATABASE_URL,
      secretsKey: complete.SECRETS_KEY,
      publicUrl: complete.PUBLIC_URL,
    });
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
