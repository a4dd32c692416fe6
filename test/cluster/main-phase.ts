// The cluster under load with faults: three replicas behind nginx, the clients' work through the proxy,
// kill -9 of a replica (back after 10 s), S3 answering 503 for 10 s, SMTP refusing with 451 for 10 s.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { type Answer, Client, type FaultWindow, unexpectedAnswers } from './client.js';
import {
  dunningOncePerCompany,
  mailsOnce,
  nothingStuck,
  onePullPerSlot,
  pushesProcessedOnce,
  recovered,
  row,
  type Row,
  uploadsReadable,
  waitFor,
} from './checks.js';
import { type Accepted, type Company, type Load, runLoad } from './load.js';
import { startNginx } from './nginx.js';
import { Replica } from './replicas.js';
import { dunningSoon, emailCustomer, everyMinuteTick, OPEN_INVOICES, scheduledConnection, seedOpenInvoices } from './seed.js';
import { admin, createCompany, mainDatabase, newSecretsKey, replicaEnv, type Surroundings } from './setup.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (text: string) => console.log(`[cluster] ${new Date().toISOString().slice(11, 19)} ${text}`);

export async function mainPhase(nginxBinary: string, work: string, around: Surroundings, freePort: () => Promise<number>): Promise<Row[]> {
  const database = await mainDatabase(work);
  const logDir = join(work, 'logs');
  mkdirSync(logDir, { recursive: true });
  const proxyPort = await freePort();
  const env = replicaEnv(database.url, `https://127.0.0.1:${proxyPort}`, around, newSecretsKey());
  const replicas = await Promise.all(['r1', 'r2', 'r3'].map(async (name) => new Replica(name, await freePort(), env, logDir)));
  let proxy: Awaited<ReturnType<typeof startNginx>> | undefined;
  const client = new Client(`https://127.0.0.1:${proxyPort}`, around.pki.ca);
  try {
    log(`PostgreSQL: ${database.kind}; migrations and two companies by the CLI`);
    const a = await createCompany(env, 'Muster Handel GmbH', 'ops@muster.test');
    const b = await createCompany(env, 'Beispiel AG', 'ops@beispiel.test');
    await seedOpenInvoices(database.url, a);
    log('three replicas start together');
    await Promise.all(replicas.map((r) => r.start()));
    proxy = await startNginx(
      nginxBinary,
      join(work, 'nginx'),
      proxyPort,
      around.certFile,
      around.keyFile,
      replicas.map((r) => `127.0.0.1:${r.port}`),
    );
    const customerId = await emailCustomer(client, a);
    await scheduledConnection(client, a, around.sap, around.pki);
    const runAt = [await dunningSoon(client, a), await dunningSoon(client, b)];
    await everyMinuteTick(database.url);
    log(`nginx on ${proxy.origin}; dunning run time ${runAt[0]} (Europe/Berlin); ERP pull every second minute`);

    const windows: FaultWindow[] = [];
    let stop = false;
    const t0 = Date.now();
    const load = runLoad(client, a, customerId, OPEN_INVOICES, () => stop);
    const faults = runFaults(database.url, replicas, around, windows, t0, load);
    const lease = await faults.killed;
    await faults.done;
    // Load goes on until the scheduled work of the run happened (the dunning run, a pull), 75 s at least.
    await waitFor(async () => Date.now() - t0 > 75_000 && (await scheduledWorkDone(database.url)), 170_000 - (Date.now() - t0));
    stop = true;
    const accepted = await load.done;
    log(
      `load stopped after ${Math.round((Date.now() - t0) / 1000)} s: ${accepted.pushes.length} pushes, ${accepted.uploads.length} uploads accepted`,
    );

    const answers = client.answers.filter((answer) => answer.what !== 'setup');
    const rows: Row[] = [];
    rows.push(await pushesProcessedOnce(database.url, accepted.pushes, 60_000));
    rows.push(await uploadsReadable(replicas, a.token, accepted.uploads));
    const kill = windows.find((window) => window.name === 'kill -9')!;
    rows.push(
      await mailsOnce(database.url, around.smtp, accepted.uploads, { replica: replicas[1].name, restartedAt: kill.restartedAt! }, 45_000),
    );
    rows.push(await dunningOncePerCompany(database.url, [a.id, b.id], 30_000));
    rows.push(await onePullPerSlot(database.url));
    rows.push(await nothingStuck(database.url, 45_000));
    const answered = answersRow(answers, windows);
    rows.push(answered);
    // What nginx says about the unexpected answers (a 502's cause is only in its error log).
    if (answered.outcome !== 'ok') log(`nginx's error log:\n${errorLines(proxy.errors())}`);
    rows.push(await recovered(replicas, ['r2']));
    rows.push(lease);
    rows.push(await sharedFailedAuthLimit(client));
    return rows;
  } finally {
    await client.close();
    await proxy?.stop();
    await Promise.all(replicas.map((r) => r.stop()));
    await database.stop();
  }
}

/** kill -9 at 8 s (back 10 s later), S3 503 at 40 s, SMTP 451 at 58 s, each for 10 s. */
function runFaults(databaseUrl: string, replicas: Replica[], around: Surroundings, windows: FaultWindow[], t0: number, load: Load) {
  const at = (seconds: number) => sleep(Math.max(0, t0 + seconds * 1000 - Date.now()));
  let lease!: Promise<Row>;
  const killed = (async () => {
    await at(5);
    // A backlog, so that every replica's push worker holds a claimed batch when one of them dies.
    const backlog = load.burst(600);
    await at(7);
    const victim = replicas[1];
    // The victim must hold documents when it dies, however fast the machine: the test locks every invoice
    // until the victim's push worker waits on one (a payment locks its invoice), kills it there, then lets
    // the live replicas go on. What it held comes back only through its lease.
    const hold = await holdInvoicesUntilWaiting(databaseUrl, victim.name);
    const killedAt = Date.now();
    victim.kill();
    await hold.release();
    // Claimed before the kill and still in processing 3 s later: in the dead replica's hands (the live
    // ones finish a document in milliseconds).
    await sleep(3000);
    const inFlight = await processingPushes(databaseUrl, killedAt);
    log(`kill -9 ${victim.name} (${inFlight.length} push documents left in processing)`);
    lease = leasePickup(databaseUrl, inFlight, killedAt);
    await backlog;
    await at(18);
    const restartedAt = Date.now();
    await victim.restart();
    await everyMinuteTick(databaseUrl); // its start wrote the tick's five-minute cron back
    windows.push({ name: 'kill -9', from: killedAt, to: Date.now(), restartedAt });
    log(`${victim.name} back after ${Math.round((Date.now() - killedAt) / 1000)} s`);
    return lease;
  })();
  const done = (async () => {
    await at(40);
    around.s3Front.down = true;
    const s3From = Date.now();
    log('S3 answers 503 for 10 s');
    await at(50);
    around.s3Front.down = false;
    windows.push({ name: 'S3 503', from: s3From, to: Date.now() });
    await at(58);
    around.smtp.refuseAll(451);
    const smtpFrom = Date.now();
    log('SMTP refuses with 451 for 10 s');
    await at(68);
    around.smtp.refuseNext(0, 451);
    windows.push({ name: 'SMTP 451', from: smtpFrom, to: Date.now() });
    await killed;
  })();
  return { killed, done };
}

async function holdInvoicesUntilWaiting(databaseUrl: string, replica: string): Promise<{ release(): Promise<void> }> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query('BEGIN');
  await db.query('SELECT id FROM invoices FOR UPDATE');
  const { rows } = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const waiting = async () =>
    (
      await admin(databaseUrl, (other) =>
        other.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND $2 = ANY (pg_blocking_pids(pid))`, [
          replica,
          rows[0].pid,
        ]),
      )
    ).rows.length > 0;
  await waitFor(waiting, 15_000); // not waiting in time: the kill goes on, and the lease row may say "not measured"
  return {
    async release() {
      await db.query('COMMIT');
      await db.end();
    },
  };
}

async function processingPushes(databaseUrl: string, before: number): Promise<string[]> {
  return admin(databaseUrl, async (db) =>
    (
      await db.query<{ id: string }>(`SELECT id FROM push_documents WHERE status = 'processing' AND updated_at < $1`, [new Date(before)])
    ).rows.map((r) => r.id),
  );
}

/** How long after the kill the documents then in processing were processed (the dead replica's among them). */
async function leasePickup(databaseUrl: string, ids: string[], killedAt: number): Promise<Row> {
  const read = () =>
    admin(databaseUrl, (db) =>
      db.query<{ open: number; last: Date | null }>(
        `SELECT count(*) FILTER (WHERE status <> 'processed')::int AS open, max(processed_at) AS last FROM push_documents WHERE id = ANY($1::uuid[])`,
        [ids],
      ),
    );
  await waitFor(async () => (await read()).rows[0].open === 0, 90_000);
  const { open, last } = (await read()).rows[0];
  const seconds = last ? (last.getTime() - killedAt) / 1000 : 0;
  if (ids.length === 0)
    return row(
      "dead replica's push documents picked up in ~15 s",
      false,
      'the killed replica held no push document: not measured this time',
      'not measured',
    );
  return row(
    "dead replica's push documents picked up in ~15 s",
    open === 0 && seconds <= 20,
    `${ids.length} in processing at the kill; ${open} still open; last processed ${seconds.toFixed(1)} s after the kill`,
  );
}

async function scheduledWorkDone(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ runs: number; pulls: number }>(
      `SELECT (SELECT count(*)::int FROM dunning_runs WHERE trigger = 'schedule') AS runs,
              (SELECT count(*)::int FROM erp_pull_runs WHERE trigger = 'schedule' AND status = 'succeeded') AS pulls`,
    );
    return rows[0].runs >= 2 && rows[0].pulls >= 1;
  } finally {
    await client.end();
  }
}

function answersRow(answers: Answer[], windows: FaultWindow[]): Row {
  const unexpected = unexpectedAnswers(answers, windows, 5000);
  const byStatus = new Map<number, number>();
  for (const answer of answers) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
  const counts = [...byStatus.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([status, n]) => `${status || 'no answer'}: ${n}`)
    .join(', ');
  const start = Math.min(...answers.map((a) => a.at));
  const windowsText = windows
    .map((w) => `${w.name} +${Math.round((w.from - start) / 1000)}-${Math.round((w.to - start) / 1000)} s`)
    .join(', ');
  const first = unexpected.slice(0, 3).map((a) => `${a.what} ${a.status || a.error} at +${((a.at - start) / 1000).toFixed(1)} s`);
  return row(
    'clients saw only 2xx, 429, 502/503 in fault windows',
    unexpected.length === 0,
    `${answers.length} requests (${counts}); windows ${windowsText}; unexpected ${unexpected.length}${first.length ? `: ${first.join('; ')}` : ''}`,
  );
}

/** The error log's lines of level error and worse, at most 60 (its warnings are notes on buffering). */
function errorLines(text: string): string {
  const lines = text.split('\n').filter((line) => /\[(error|crit|alert|emerg)\]/.test(line));
  return lines.slice(0, 60).join('\n') || '(no error lines)';
}

/** 31 wrong tokens in a minute from one client, spread by the proxy over the replicas: the 31st is refused. */
async function sharedFailedAuthLimit(client: Client): Promise<Row> {
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++)
    statuses.push((await client.send('limits', 'GET', '/api/v1/customers', { Authorization: `Token token=rt_wrong${i}` })).status);
  const first = statuses.slice(0, 30);
  return row(
    'shared limits: 31st wrong token in a minute refused',
    first.every((s) => s === 401) && statuses[30] === 429,
    `answers 1-30: ${[...new Set(first)].join('/')}; 31st: ${statuses[30]}`,
  );
}

export type { Accepted, Company };
