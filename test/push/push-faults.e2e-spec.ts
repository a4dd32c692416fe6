// Faults with the service in a child process on its own embedded PostgreSQL: SIGKILL while documents
// are queued and while one is being processed, and PostgreSQL restarted under push load. Afterwards
// every acknowledged (202) document is processed exactly once in effect, and no key is in the logs.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { runMigrations } from '../../src/database/migrate.js';
import { customerFields, invoiceDocument } from '../support/push.js';
import { type ServiceChild, startServiceChild } from '../support/service-child.js';

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Quick retries and a short lease, so that an attempt lost with its process is retried within seconds. The rate limits are the defaults: an outage must not get the ERP locked out afterwards.
 */
const ENV = {
  LOG_LEVEL: 'info',
  PUBLIC_URL: 'https://receivables.test',
  PUSH_RETRY_BASE_SECONDS: '1',
  PUSH_LEASE_SECONDS: '3',
  PUSH_DEFER_SECONDS: '1',
  JOBS_MAINTENANCE_SECONDS: '1',
};

describe('push under faults (service in a child process)', () => {
  let dataDir: string;
  let port: number;
  let database: EmbeddedDatabase;
  let service: ServiceChild | undefined;
  let db: pg.Pool;
  let apiKey: string;
  const outputs: string[] = [];
  /** Every answer to a push that was not a 202: status and Retry-After (0: no answer at all). */
  const refusals: Array<{ status: number; retryAfter: string | null }> = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'receivables-faults-'));
    await chmod(dataDir, 0o755);
    port = await freePort();
    database = await startEmbeddedPostgres(dataDir, port);
    await runMigrations(database.url);
    db = new pg.Pool({ connectionString: database.url, max: 3 });
    db.on('error', () => undefined);
    service = await start();
    const reg = await post('/api/v1/registrations', {
      company_name: 'Fault GmbH',
      email: 'faults@example.com',
      password: 'Sicher!Passwort1',
    });
    expect(reg.status).toBe(201);
    apiKey = ((await reg.json()) as { api_key: string }).api_key;
  }, 120_000);

  afterAll(async () => {
    if (service) outputs.push(service.output());
    await service?.kill();
    await db?.end();
    await database?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  async function start(env: Record<string, string> = {}): Promise<ServiceChild> {
    return startServiceChild(database.url, { ...ENV, ...env });
  }

  async function restart(env: Record<string, string> = {}): Promise<void> {
    outputs.push(service!.output());
    await service!.kill();
    service = await start(env);
  }

  function post(path: string, body: unknown, auth?: string): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (auth) headers.authorization = auth;
    return fetch(`${service!.origin}${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });
  }

  async function push(body: unknown): Promise<string | undefined> {
    try {
      const res = await post('/v2/documents', body, `ApiKey ${apiKey}`);
      if (res.status !== 202) {
        refusals.push({ status: res.status, retryAfter: res.headers.get('retry-after') });
        await res.body?.cancel();
        return undefined;
      }
      return ((await res.json()) as { document: { id: string } }).document.id.slice(4);
    } catch {
      refusals.push({ status: 0, retryAfter: null });
      return undefined; // not acknowledged: the client would retry it
    }
  }

  async function waitUntilProcessed(ids: string[], timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM push_documents WHERE id = ANY($1) AND status = 'processed'`, [ids]);
      if (rows[0].n === ids.length) return;
      if (Date.now() > until) {
        const { rows: states } = await db.query(
          `SELECT status, count(*)::int AS n FROM push_documents WHERE id = ANY($1) GROUP BY status`,
          [ids],
        );
        throw new Error(`not all processed: ${JSON.stringify(states)}`);
      }
      await sleep(200);
    }
  }

  async function paymentsOf(prefix: string): Promise<Array<{ external_id: string; n: number }>> {
    const { rows } = await db.query(`SELECT external_id, count(*)::int AS n FROM payments WHERE external_id LIKE $1 GROUP BY external_id`, [
      `${prefix}%`,
    ]);
    return rows;
  }

  it('processes every acknowledged document exactly once after a SIGKILL while they were queued', async () => {
    await restart({ PUSH_WORKER: 'false' });
    const invoice = await push(invoiceDocument('RE-Q', 'K-Q', { amount: '1000.00' }));
    const ids = [invoice!];
    for (let i = 0; i < 40; i++)
      ids.push((await push({ document_type: 'payment', external_id: `Q-${i}`, amount: '2.50', invoice_external_id: 'RE-Q' }))!);
    expect(ids.every(Boolean)).toBe(true);
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM push_documents WHERE id = ANY($1) AND status = 'queued'`, [ids]);
    expect(rows[0].n).toBe(41);

    await restart(); // SIGKILL, then a process with the worker
    await waitUntilProcessed(ids);
    expect(await paymentsOf('Q-')).toHaveLength(40);
    const { rows: inv } = await db.query(`SELECT open_amount::text AS open FROM invoices WHERE external_id = 'RE-Q'`);
    expect(inv).toEqual([{ open: '900.00' }]);
  }, 120_000);

  it('processes a document exactly once after a SIGKILL in the middle of processing it', async () => {
    const invoice = await push(invoiceDocument('RE-P', 'K-P', { amount: '500.00' }));
    await waitUntilProcessed([invoice!]);
    // Hold the invoice's row lock: the worker's attempt stops inside its transaction, after `processing`.
    const blocker = await db.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`SELECT 1 FROM invoices WHERE external_id = 'RE-P' FOR UPDATE`);
      const id = await push({ document_type: 'payment', external_id: 'P-1', amount: '100.00', invoice_external_id: 'RE-P' });
      const until = Date.now() + 20_000;
      for (;;) {
        const { rows } = await db.query(`SELECT status FROM push_documents WHERE id = $1`, [id]);
        if (rows[0].status === 'processing') break;
        if (Date.now() > until) throw new Error(`never processing: ${rows[0].status}`);
        await sleep(50);
      }
      await service!.kill();
      await blocker.query('COMMIT');
      outputs.push(service!.output());
      service = await start();
      await waitUntilProcessed([id!], 60_000);
      expect(await paymentsOf('P-')).toEqual([{ external_id: 'P-1', n: 1 }]);
      const { rows: inv } = await db.query(`SELECT open_amount::text AS open FROM invoices WHERE external_id = 'RE-P'`);
      expect(inv).toEqual([{ open: '400.00' }]);
      const { rows: steps } = await db.query(`SELECT step FROM push_audit_log WHERE document_id = $1 ORDER BY id`, [id]);
      // The attempt lost with the process is recorded as failed before the next one starts.
      expect(steps.map((s: { step: string }) => s.step)).toEqual(['received', 'attempt', 'failed', 'attempt', 'succeeded']);
    } finally {
      blocker.release();
    }
  }, 120_000);

  it('does not book twice when an attempt outlives its lease, nor when the process dies right after the effect committed', async () => {
    const invoice = await push(invoiceDocument('RE-K', 'K-K', { amount: '500.00' }));
    await waitUntilProcessed([invoice!]);
    const invoiceLock = await db.connect();
    try {
      // Stop the attempt inside its batch's transaction for longer than PUSH_LEASE_SECONDS (3).
      await invoiceLock.query('BEGIN');
      await invoiceLock.query(`SELECT 1 FROM invoices WHERE external_id = 'RE-K' FOR UPDATE`);
      const id = (await push({ document_type: 'payment', external_id: 'K-1', amount: '100.00', invoice_external_id: 'RE-K' }))!;
      const until = Date.now() + 20_000;
      while ((await db.query(`SELECT status FROM push_documents WHERE id = $1`, [id])).rows[0].status !== 'processing') {
        if (Date.now() > until) throw new Error('never processing');
        await sleep(50);
      }
      await sleep(5000); // the lease ran out: the document is due again, but its row is locked by the attempt under way
      await invoiceLock.query('COMMIT');
      await waitUntilProcessed([id], 20_000); // the effect and the processed marker are committed together ...
      await service!.kill(); // ... and the process dies right after
      outputs.push(service!.output());
      service = await start();
      await sleep(5000); // longer than the lease: nothing is taken again
      const { rows: inv } = await db.query(`SELECT open_amount::text AS open FROM invoices WHERE external_id = 'RE-K'`);
      expect(inv).toEqual([{ open: '400.00' }]);
      expect(await paymentsOf('K-')).toEqual([{ external_id: 'K-1', n: 1 }]);
      const { rows: steps } = await db.query(`SELECT step FROM push_audit_log WHERE document_id = $1 ORDER BY id`, [id]);
      expect(steps.map((s: { step: string }) => s.step)).toEqual(['received', 'attempt', 'succeeded']);
    } finally {
      await invoiceLock.query('ROLLBACK').catch(() => undefined);
      invoiceLock.release();
    }
  }, 120_000);

  it('recovers by itself when PostgreSQL restarts under push load: 503 with Retry-After meanwhile, every stored payment booked once', async () => {
    await push({ document_type: 'customer', external_id: 'K-R', ...customerFields('R') });
    const invoice = await push(invoiceDocument('RE-R', 'K-R', { amount: '10000.00' }));
    await waitUntilProcessed([invoice!]);
    refusals.length = 0;
    const acknowledged: string[] = [];
    let sent = 0;
    let stop = false;
    const load = (async () => {
      while (!stop) {
        const n = sent++;
        const id = await push({ document_type: 'payment', external_id: `R-${n}`, amount: '1.00', invoice_external_id: 'RE-R' });
        if (id) acknowledged.push(id);
        else await sleep(20); // an impatient client: far more refused requests than FAILED_AUTH_PER_MINUTE (30)
      }
    })();
    await sleep(1500);
    const before = acknowledged.length;
    await database.stop();
    await sleep(2000);
    database = await startEmbeddedPostgres(dataDir, port);
    const restartedAt = acknowledged.length;
    await sleep(8000);
    stop = true;
    await load;
    expect(before).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(restartedAt); // pushes are accepted again after the restart
    // While the database was away: 503 problems with Retry-After, never a 500, and no 429 afterwards
    // (failed lookups are no failed authentications).
    expect(refusals.length).toBeGreaterThan(0);
    const unhandled = service!
      .output()
      .split('\n')
      .filter((line) => line.includes('"unhandled error"'))
      .map((line) => line.slice(0, 800));
    expect({ refused: refusals.filter((r) => r.status !== 503 || !/^\d+$/.test(r.retryAfter ?? '')), unhandled }).toEqual({
      refused: [],
      unhandled: [],
    });
    expect(service!.alive()).toBe(true);
    const ready = await fetch(`${service!.origin}/health/ready`);
    expect(ready.status).toBe(200);
    await waitUntilProcessed(acknowledged, 90_000);
    // A 503 whose commit did happen (the answer was lost with the connection) is a stored document too:
    // every stored one is processed, each booked once, and the invoice is open by exactly the rest.
    const { rows: stored } = await db.query(`SELECT id, external_id FROM push_documents WHERE external_id LIKE 'R-%'`);
    await waitUntilProcessed(
      stored.map((r: { id: string }) => r.id),
      90_000,
    );
    const payments = await paymentsOf('R-');
    expect(payments.map((p) => p.external_id).sort()).toEqual(stored.map((r: { external_id: string }) => r.external_id).sort());
    const { rows: inv } = await db.query(
      `SELECT open_amount::text AS open, paid_amount::text AS paid FROM invoices WHERE external_id = 'RE-R'`,
    );
    expect(inv).toEqual([{ open: (10000 - stored.length).toFixed(2), paid: stored.length.toFixed(2) }]);
  }, 180_000);

  it('writes no API key into its logs', () => {
    const logs = outputs.join('') + (service?.output() ?? '');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(apiKey);
    expect(logs).not.toContain(apiKey.slice(3));
  });
});
