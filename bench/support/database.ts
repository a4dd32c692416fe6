// The PostgreSQL server the bench runs against: DATABASE_URL when set, else an embedded server in a
// temporary folder (removed at the end). Each scenario gets a fresh, migrated database of its own,
// dropped afterwards, so a bench never touches the data in DATABASE_URL's database.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { runMigrations } from '../../src/database/migrate.js';
import { postgresCpuMs } from './process-cpu.js';

export interface BenchServer {
  /** 'embedded' or the DATABASE_URL host, for the report. */
  kind: string;
  /** CPU ms the database server has used so far, when it can be seen (the embedded one on Linux). */
  cpuMs(): number | undefined;
  /** A fresh database with the schema applied; dropped by close(). */
  freshDatabase(label: string): Promise<string>;
  close(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function openBenchServer(databaseUrl = process.env.DATABASE_URL): Promise<BenchServer> {
  if (databaseUrl)
    return serverAt(
      databaseUrl,
      `DATABASE_URL (${new URL(databaseUrl).host})`,
      () => undefined,
      () => Promise.resolve(),
    );
  const dir = await mkdtemp(join(tmpdir(), 'receivables-bench-'));
  await chmod(dir, 0o755); // as root, Postgres runs as `postgres` and must reach its folder
  const port = await freePort();
  const embedded = await withConnections(await startEmbeddedPostgres(dir, port, 'postgres'), () =>
    startEmbeddedPostgres(dir, port, 'postgres'),
  );
  const pidFile = join(dir, 'postgres', 'postmaster.pid');
  return serverAt(
    embedded.url,
    'embedded',
    () => postgresCpuMs(pidFile),
    async () => {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    },
  );
}

/**
 * A scenario may run many servers side by side, each with the service's pool (20): more than the 100
 * connections PostgreSQL allows by default. The setting needs a restart.
 */
const MAX_CONNECTIONS = 400;

async function withConnections(embedded: EmbeddedDatabase, restart: () => Promise<EmbeddedDatabase>): Promise<EmbeddedDatabase> {
  const client = new pg.Client({ connectionString: embedded.url });
  await client.connect();
  try {
    await client.query(`ALTER SYSTEM SET max_connections = ${MAX_CONNECTIONS}`);
  } finally {
    await client.end();
  }
  await embedded.stop();
  return restart();
}

function serverAt(adminUrl: string, kind: string, cpuMs: () => number | undefined, stop: () => Promise<void>): BenchServer {
  const created: string[] = [];
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    kind,
    cpuMs,
    async freshDatabase(label) {
      const name = `receivables_bench_${label.replace(/\W/g, '_')}_${process.pid}`;
      await admin(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        await client.query(`CREATE DATABASE ${name}`);
      });
      created.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      await runMigrations(url.toString());
      return url.toString();
    },
    async close() {
      try {
        await admin(async (client) => {
          for (const name of created.splice(0)) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        });
      } finally {
        await stop();
      }
    },
  };
}
