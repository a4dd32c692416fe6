// What the cluster runs on: a PostgreSQL database of its own, S3 (s3rver behind a relay that can
// answer 503), an SMTP server that can refuse with 451, the local SAP OData stand-in, a TLS
// certificate for the proxy (the run's own CA, made with openssl), and the replicas' environment.
import S3rver from '@20minutes/s3rver';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { type ErpPki, makeErpPki } from '../support/pki.js';
import { generateData, SapODataServer } from '../support/sap-odata-server.js';
import { freePort } from '../support/service-process.js';
import { SMTP_CA_FILE, startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { type S3Front, startS3Front } from './s3-front.js';

export interface Database {
  url: string;
  kind: string;
  stop(): Promise<void>;
  /** Only for a throwaway embedded server: the server down and up again (same folder and port). */
  restartable?: { down(): Promise<void>; up(): Promise<void> };
}

export async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** TEST_DATABASE_URL / DATABASE_URL's server with a database of its own (dropped at the end), else an embedded one. */
export async function mainDatabase(work: string): Promise<Database> {
  const server = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!server) return throwawayDatabase(work, 'embedded');
  const name = `receivables_cluster_${process.pid}`;
  await admin(server, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: `${new URL(server).host} (database ${name})`,
    stop: () => admin(server, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** An embedded PostgreSQL in a folder of its own: the one the test may stop and start. */
export async function throwawayDatabase(work: string, label: string): Promise<Database> {
  const dir = await mkdtemp(join(work, `pg-${label}-`));
  await chmod(dir, 0o755); // as root, PostgreSQL runs as `postgres` and must reach its folder
  const port = await freePort();
  let embedded = await startEmbeddedPostgres(dir, port, 'receivables');
  return {
    url: embedded.url,
    kind: `embedded (${label})`,
    stop: () => embedded.stop(),
    restartable: {
      down: () => embedded.stop(),
      up: async () => {
        embedded = await startEmbeddedPostgres(dir, port, 'receivables');
      },
    },
  };
}

export interface Surroundings {
  s3: S3rver;
  s3Front: S3Front;
  smtp: TestSmtp;
  sap: SapODataServer;
  pki: ErpPki;
  certFile: string;
  keyFile: string;
  close(): Promise<void>;
}

export async function startSurroundings(work: string): Promise<Surroundings> {
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: join(work, 's3'),
    configureBuckets: [{ name: 'documents' }],
  });
  const { port: s3Port } = await s3.run();
  const s3Front = await startS3Front(s3Port);
  const smtp = await startTestSmtp();
  const pki = makeErpPki();
  const sap = await new SapODataServer({
    pki,
    version: 'v2',
    auth: 'basic',
    username: 'RECEIVABLES',
    password: 'T3chnical-User!pw',
  }).start();
  const data = generateData(20, 200);
  sap.partners = data.partners;
  sap.items = data.items;
  sap.touch();
  // The proxy's certificate: the run's CA signed it for localhost and 127.0.0.1 (TLS 1.2+ only, see the template).
  const certFile = join(work, 'proxy.crt');
  const keyFile = join(work, 'proxy.key');
  await writeFile(certFile, pki.serverCert);
  await writeFile(keyFile, pki.serverKey, { mode: 0o600 });
  return {
    s3,
    s3Front,
    smtp,
    sap,
    pki,
    certFile,
    keyFile,
    async close() {
      await sap.stop();
      await smtp.close();
      await s3Front.close();
      await s3.close();
      pki.remove();
    },
  };
}

/** A replica's environment: production, behind the proxy, S3, SMTP; short retries so a run stays a few minutes. */
export function replicaEnv(databaseUrl: string, proxyOrigin: string, around: Surroundings, secretsKey: string): Record<string, string> {
  return {
    APP_ENV: 'production',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: '10',
    SECRETS_KEY: secretsKey,
    PUBLIC_URL: proxyOrigin,
    TRUSTED_PROXIES: '127.0.0.1',
    LOG_LEVEL: 'info',
    DOCUMENT_STORE: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${around.s3Front.port}`,
    S3_BUCKET: 'documents',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    SMTP_URL: around.smtp.url,
    SMTP_CA_FILE,
    SMTP_TIMEOUT_SECONDS: '5',
    MAIL_FROM: 'rechnungen@receivables.test',
    SHIPPING_RETRY_LIMIT: '6',
    SHIPPING_RETRY_DELAY_SECONDS: '2',
    SHIPPING_POLL_SECONDS: '0.5',
    SHIPPING_SWEEP_SECONDS: '5',
    // A delivery job lost with its replica is retried after this; the default 300 s would outlast the run.
    SHIPPING_JOB_EXPIRE_SECONDS: '30',
    ERP_ALLOW_PRIVATE_NETWORKS: 'true',
    ERP_RETRY_BASE_DELAY_MS: '200',
    ERP_PULL_STALE_AFTER_SECONDS: '30',
    PUSH_RETRY_BASE_SECONDS: '1',
    // The longest one attempt may take; a dead replica's documents come back after PUSH_LEASE_SECONDS (15).
    PUSH_ATTEMPT_TIMEOUT_SECONDS: '30',
    // The load is about the data path: one API token makes thousands of requests a minute here, and the
    // limit is shared by the replicas now. The shared failed-authentication limit has a row of its own.
    RATE_LIMIT_PER_MINUTE: '100000',
    JOBS_MAINTENANCE_SECONDS: '10',
  };
}

export const newSecretsKey = () => randomBytes(32).toString('base64');

export async function makeWorkDir(): Promise<{ dir: string; remove(): Promise<void>; removeData(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'receivables-cluster-'));
  await chmod(dir, 0o755);
  const removeAll = (paths: string[]) => Promise.all(paths.map((path) => rm(path, { recursive: true, force: true }))).then(() => undefined);
  return {
    dir,
    remove: () => removeAll([dir]),
    /** After a failure: the logs stay, the databases and stored objects go. */
    removeData: async () => {
      const data = (folder: string) =>
        readdir(folder).then(
          (names) => names.filter((n) => n === 's3' || (n.startsWith('pg-') && n !== 'pg-phase')).map((n) => join(folder, n)),
          () => [],
        );
      await removeAll([...(await data(join(dir, 'pg-phase'))), ...(await data(dir))]);
    },
  };
}

const run = promisify(execFile);

/** `node dist/src/cli/main.js company:create` as an operator runs it (migrations first, then the company). */
export async function createCompany(env: Record<string, string>, name: string, email: string) {
  const cli = new URL('../../dist/src/cli/main.js', import.meta.url).pathname;
  const { stdout } = await run(process.execPath, [cli, 'company:create', '--name', name, '--email', email], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  const out = JSON.parse(stdout) as { company: { id: string }; api_token: string; api_key: string };
  return { id: out.company.id, token: out.api_token, key: out.api_key };
}
