// Leases of pushed documents across replicas (issue 22), with the service in child processes on one
// database: a replica killed (SIGKILL) in the middle of a document gives it back within one lease
// (PUSH_LEASE_SECONDS, 15 s by default; before the heartbeat the lease was PUSH_ATTEMPT_TIMEOUT_SECONDS,
// 120 s), and a document that takes longer than the lease is not taken away from the live replica.
// The attempt is made slow by holding its invoice's row lock from the test; which replica took it is
// told by the application_name of the connection waiting for that lock.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { runMigrations } from '../../src/database/migrate.js';
import { PushQueueRepository } from '../../src/push/queue/push-queue.repository.js';
import {
  apiKeyAuth,
  auditSteps,
  customerFields,
  invoiceDocument,
  pushAccepted,
  quickPush,
  waitForStatus as waitForWire,
} from '../support/push.js';
import { type ServiceChild, startServiceChild } from '../support/service-child.js';
import { testDatabaseUrl } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The default lease: the test relies on it, as an operator would. */
const LEASE_MS = 15_000;

describe('push leases across replicas (service in child processes)', () => {
  let dataDir: string;
  let db: pg.Pool;
  const replicas = new Map<string, ServiceChild>();
  let apiKey: string;

  const start = async (name: string) => {
    const url = new URL(testDatabaseUrl());
    url.searchParams.set('application_name', name);
    const replica = await startServiceChild(url.toString(), {
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://receivables.test',
      DATA_DIR: dataDir,
      PUSH_RETRY_BASE_SECONDS: '1',
    });
    replicas.set(name, replica);
    return replica;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'receivables-push-lease-'));
    await runMigrations(testDatabaseUrl());
    db = new pg.Pool({ connectionString: testDatabaseUrl(), max: 3 });
    // Registration is limited per address, and the counters are shared through this database with the
    // suites before: the service starts on it as on a fresh one.
    await db.query(`TRUNCATE companies, pgboss.job, rate_limit_counters CASCADE`);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([...replicas.values()].map((replica) => replica.kill()));
    await db?.end();
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  async function push(replica: ServiceChild, body: unknown, auth = `ApiKey ${apiKey}`): Promise<string> {
    const res = await fetch(`${replica.origin}/v2/documents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth },
      body: JSON.stringify(body),
    });
    if (res.status !== 202) throw new Error(`push not accepted: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { document: { id: string } }).document.id.slice(4);
  }

  async function waitForStatus(id: string, status: string, timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await db.query(`SELECT status FROM push_documents WHERE id = $1`, [id]);
      if (rows[0]?.status === status) return;
      if (Date.now() > until) throw new Error(`document ${id} not ${status} after ${timeoutMs} ms: ${rows[0]?.status}`);
      await sleep(50);
    }
  }

  /** Holds the invoice's row lock: a payment on it stops inside its attempt's transaction until released. */
  async function holdInvoice(externalId: string): Promise<pg.PoolClient> {
    const blocker = await db.connect();
    await blocker.query('BEGIN');
    await blocker.query(`SELECT 1 FROM invoices WHERE external_id = $1 FOR UPDATE`, [externalId]);
    return blocker;
  }

  /** The replica whose attempt waits for the blocker's lock (the one that claimed the document). */
  async function holder(blocker: pg.PoolClient): Promise<string> {
    const { rows: me } = await blocker.query(`SELECT pg_backend_pid() AS pid`);
    const until = Date.now() + 20_000;
    for (;;) {
      const { rows } = await db.query(`SELECT application_name FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))`, [me[0].pid]);
      if (rows.length) return rows[0].application_name as string;
      if (Date.now() > until) throw new Error('no attempt waits for the invoice');
      await sleep(20);
    }
  }

  async function steps(id: string): Promise<string[]> {
    const { rows } = await db.query(`SELECT step, attempt FROM push_audit_log WHERE document_id = $1 ORDER BY id`, [id]);
    return rows.map((r: { step: string; attempt: number | null }) => (r.attempt === null ? r.step : `${r.step} ${r.attempt}`));
  }

  async function bookings(externalId: string): Promise<{ payments: number; open: string }> {
    const { rows: payments } = await db.query(`SELECT count(*)::int AS n FROM payments WHERE external_id = $1`, [externalId]);
    const { rows: invoice } = await db.query(
      `SELECT i.open_amount::text AS open FROM invoices i JOIN payments p ON p.invoice_id = i.id WHERE p.external_id = $1`,
      [externalId],
    );
    return { payments: payments[0].n as number, open: invoice[0]?.open as string };
  }

  it('gives a document held by a killed replica to another one within the lease, processed exactly once', async () => {
    const first = await start('lease-a');
    await start('lease-b');
    const reg = await fetch(`${first.origin}/api/v1/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ company_name: 'Lease GmbH', email: 'lease@example.com', password: 'Sicher!Passwort1' }),
    });
    expect(reg.status).toBe(201);
    apiKey = ((await reg.json()) as { api_key: string }).api_key;
    await waitForStatus(await push(first, invoiceDocument('RE-L1', 'K-L', { amount: '500.00' })), 'processed', 20_000);

    const blocker = await holdInvoice('RE-L1');
    try {
      const id = await push(first, { document_type: 'payment', external_id: 'L1-P', amount: '100.00', invoice_external_id: 'RE-L1' });
      // Killed right after its claim: the worst case, a whole lease to wait out.
      const taken = await holder(blocker);
      await replicas.get(taken)!.kill();
      const killedAt = Date.now();
      await blocker.query('COMMIT');
      await waitForStatus(id, 'processed', LEASE_MS + 15_000);
      const after = Date.now() - killedAt;
      expect(after).toBeLessThan(LEASE_MS + 2_000);
      expect(await bookings('L1-P')).toEqual({ payments: 1, open: '400.00' });
      // The attempt lost with its replica is recorded as failed before the second one starts.
      expect(await steps(id)).toEqual(['received', 'attempt 1', 'failed 1', 'attempt 2', 'succeeded 2']);
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      blocker.release();
    }
  }, 120_000);

  it('does not take a document away from a live replica while it takes longer than the lease', async () => {
    const killed = [...replicas].find(([, replica]) => !replica.alive())![0];
    const second = await start(killed); // two live replicas again, both polling
    await waitForStatus(await push(second, invoiceDocument('RE-L2', 'K-L', { amount: '500.00' })), 'processed', 20_000);
    const blocker = await holdInvoice('RE-L2');
    try {
      const id = await push(second, { document_type: 'payment', external_id: 'L2-P', amount: '100.00', invoice_external_id: 'RE-L2' });
      await waitForStatus(id, 'processing', 20_000);
      const { rows: claimed } = await db.query(`SELECT lease_token FROM push_documents WHERE id = $1`, [id]);
      await sleep(LEASE_MS + 5_000); // longer than a lease: the other replica polls for due documents all along
      const { rows: held } = await db.query(`SELECT status, lease_token, attempts FROM push_documents WHERE id = $1`, [id]);
      expect(held).toEqual([{ status: 'processing', lease_token: claimed[0].lease_token, attempts: 1 }]);
      await blocker.query('COMMIT');
      await waitForStatus(id, 'processed', 20_000);
      expect(await bookings('L2-P')).toEqual({ payments: 1, open: '400.00' });
      expect(await steps(id)).toEqual(['received', 'attempt 1', 'succeeded 1']);
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      blocker.release();
    }
  }, 120_000);
});

describe('push: the longest one attempt may take (PUSH_ATTEMPT_TIMEOUT_SECONDS)', () => {
  const t = useTestApp(quickPush({ attemptTimeoutSeconds: 2 }), { company: true });

  it('rolls back an attempt that ran longer instead of committing it, and retries it: the payment is booked once', async () => {
    const auth = apiKeyAuth(t.company.apiKey);
    await waitForWire(t.app, auth, await pushAccepted(t.app, auth, invoiceDocument('RE-T', 'K-T', { amount: '500.00' })), ['processed']);
    const blocker = t.db.createQueryRunner();
    await blocker.connect();
    try {
      await blocker.startTransaction();
      await blocker.query(`SELECT 1 FROM invoices WHERE external_id = 'RE-T' FOR UPDATE`);
      const id = await pushAccepted(t.app, auth, {
        document_type: 'payment',
        external_id: 'T-P',
        amount: '100.00',
        invoice_external_id: 'RE-T',
      });
      await waitForWire(t.app, auth, id, ['processing']);
      await sleep(3000); // the attempt waits for the invoice longer than it may take
      await blocker.commitTransaction();
      await waitForWire(t.app, auth, id, ['processed'], 30_000);
      expect(await auditSteps(t.app, id)).toEqual(['received', 'attempt 1', 'failed 1', 'attempt 2', 'succeeded 2']);
      const [failed] = await t.db.query(`SELECT error FROM push_audit_log WHERE document_id = $1 AND step = 'failed'`, [id.slice(4)]);
      expect(failed.error).toBe('the attempt ran longer than PUSH_ATTEMPT_TIMEOUT_SECONDS (2 s)');
      const payments = await t.db.query(
        `SELECT p.amount::text AS amount, i.open_amount::text AS open FROM payments p JOIN invoices i ON i.id = p.invoice_id WHERE p.external_id = 'T-P'`,
      );
      expect(payments).toEqual([{ amount: '100.00', open: '400.00' }]);
    } finally {
      if (blocker.isTransactionActive) await blocker.rollbackTransaction();
      await blocker.release();
    }
  }, 60_000);
});

describe('push: the lease heartbeat (PushQueueRepository.renewLease)', () => {
  const t = useTestApp(quickPush({ worker: false }), { company: true });

  it('renews only the documents its token holds, and passes over one under a row lock without waiting for it', async () => {
    const auth = apiKeyAuth(t.company.apiKey);
    const ids: string[] = [];
    for (const n of [1, 2, 3])
      ids.push((await pushAccepted(t.app, auth, { document_type: 'customer', external_id: `K-H${n}`, ...customerFields(n) })).slice(4));
    const [mine, locked, taken] = ids;
    const token = randomUUID();
    await t.db.query(`UPDATE push_documents SET status = 'processing', lease_token = $2, next_attempt_at = now() WHERE id = ANY($1)`, [
      ids,
      token,
    ]);
    await t.db.query(`UPDATE push_documents SET lease_token = $2 WHERE id = $1`, [taken, randomUUID()]); // another claim took it
    const blocker = t.db.createQueryRunner();
    await blocker.connect();
    try {
      await blocker.startTransaction();
      await blocker.query(`SELECT 1 FROM push_documents WHERE id = $1 FOR UPDATE`, [locked]); // as the batch's effect lock does
      const docs = ids.map((id) => ({ companyId: t.company.id.slice(4), id }));
      const held = await t.app.get(PushQueueRepository).renewLease(docs, token, 15);
      expect(held).toBe(2);
      const rows = await t.db.query(
        `SELECT id, next_attempt_at > now() + interval '10 seconds' AS renewed FROM push_documents WHERE id = ANY($1)`,
        [ids],
      );
      const renewed = Object.fromEntries(rows.map((r: { id: string; renewed: boolean }) => [r.id, r.renewed]));
      expect(renewed).toEqual({ [mine]: true, [locked]: false, [taken]: false });
    } finally {
      await blocker.rollbackTransaction();
      await blocker.release();
    }
  });
});
