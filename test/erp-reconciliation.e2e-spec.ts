// What the incremental pull cannot see, and how runs end: the periodic full reconciliation (items that
// left the ERP's open list are asked for by key, back-dated clearings booked), mappings without change
// or clearing dates, settling and reopening through the transition table, counts of committed batches
// only, a reset of the watermarks during a run, resuming through the schedule and through a job retry,
// and a schedule that fires once.
import type { INestApplication } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { ErpPullService } from '../src/erp-pull/run/erp-pull.service.js';
import { api as restApi } from './support/factories.js';
import { connectionBody, erpApi, erpTestConfig, runPull, sapItem, sapPartner, uuidOf, CLIENT_ID, CLIENT_SECRET, TECH_PASSWORD, TECH_USER } from './support/erp.js';
import { type ErpPki, makeErpPki } from './support/pki.js';
import { ITEMS_PATH, SapODataServer, type SapServerOptions } from './support/sap-odata-server.js';
import { dataSource, registerCompany, resetDatabase, startTestApp, type TestCompany } from './support/test-app.js';

let pki: ErpPki;
let app: INestApplication;
let db: DataSource;
let company: TestCompany;
const servers: SapODataServer[] = [];

async function sap(options: Partial<SapServerOptions> = {}): Promise<SapODataServer> {
  const server = new SapODataServer({ pki, version: 'v2', auth: 'basic', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, username: TECH_USER, password: TECH_PASSWORD, ...options });
  server.partners = [sapPartner('17100001')];
  servers.push(await server.start());
  return server;
}

async function connect(server: SapODataServer, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await erpApi(app, company).create(connectionBody(server, pki, overrides));
  if (res.status !== 201) throw new Error(`connection not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.erp_connection.id;
}

const today = () => new Date().toISOString().slice(0, 10);
const count = async (sql: string, params: unknown[] = []) => Number((await db.query(sql, params))[0].n);
const filters = (server: SapODataServer) => server.requests.filter((r) => r.url.startsWith(ITEMS_PATH)).map((r) => new URL(r.url, server.origin).searchParams.get('$filter') ?? '');
const invoice = async (externalId: string) => (await restApi(app, company).get(`/api/v1/invoices/find/${externalId}`).expect(200)).body.invoice;
const key = (n: number) => `1010-2026-${1_800_000_000 + n}-001`;
const keyClause = (n: number) => `CompanyCode eq '1010' and FiscalYear eq '2026' and AccountingDocument eq '${1_800_000_000 + n}' and AccountingDocumentItem eq '001'`;

beforeAll(async () => {
  pki = makeErpPki();
  app = await startTestApp(erpTestConfig());
  db = dataSource(app);
});
beforeEach(async () => {
  await resetDatabase(app);
  company = await registerCompany(app);
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});
afterAll(async () => {
  await app.close();
  pki.remove();
});

describe('full reconciliation', () => {
  it('settles what the ERP cleared with a back-dated clearing date, and reports what it no longer has; other connections stay out', async () => {
    const server = await sap();
    // Item 4 changed last: the receivables watermark moves past the others' change date.
    server.items = [1, 2, 3, 4].map((n) => sapItem(n, { AmountInTransactionCurrency: '200.000', LastChangeDate: n === 4 ? '2026-01-25' : '2026-01-16' }));
    const id = await connect(server);
    // A second ERP of the same company: its invoices are not this connection's to reconcile.
    const other = await sap();
    other.items = [sapItem(50)];
    const otherId = await connect(other);
    expect(await runPull(app, company, otherId)).toMatchObject({ status: 'succeeded', counts: { receivables: { created: 1 } } });
    expect(await runPull(app, company, id)).toMatchObject({ status: 'succeeded', counts: { receivables: { created: 4 }, reconciliation: { missing: 0 } } });

    // A late bank statement clears item 1 with a value date weeks ago (LastChangeDate untouched);
    // item 2 disappears from the ERP altogether.
    server.items[0] = { ...server.items[0], IsCleared: true, ClearingDate: '2026-01-05', ClearingAccountingDocument: '1400000099' };
    server.items.splice(1, 1);
    server.touch();
    const incremental = await runPull(app, company, id);
    expect(incremental).toMatchObject({ status: 'succeeded', mode: 'incremental', counts: { clearings: { payments: 0, settled: 0 } } });
    expect(incremental.counts.reconciliation).toBeUndefined();
    expect((await invoice(key(1))).invoice_status).toBe('sent');

    const asked = filters(server).length;
    const full = await runPull(app, company, id, 'full');
    expect(full).toMatchObject({
      status: 'succeeded',
      mode: 'full',
      counts: { reconciliation: { missing: 2, cleared: 1, not_found: 1 }, clearings: { payments: 1, settled: 1, reopened: 0 } },
      watermark_to: { reconciled: today() },
    });
    expect(full.errors).toContainEqual({ entity: 'receivables', key: key(2), message: expect.stringMatching(/^open here, but the ERP has no such item any more/) });
    // The open list, then one request asking for the two missing keys.
    const [openList, byKey] = filters(server).slice(asked).filter((f) => !f.includes('IsCleared eq true'));
    expect(openList).toBe("(FinancialAccountType eq 'D') and (IsCleared eq false)");
    expect(byKey).toMatch(/^\(FinancialAccountType eq 'D'\) and \(\(.*\) or \(.*\)\)$/);
    expect(byKey).toContain(`(${keyClause(1)})`);
    expect(byKey).toContain(`(${keyClause(2)})`);
    // The other connection's invoice is neither asked for here nor settled.
    expect(filters(server).some((f) => f.includes('1800000050'))).toBe(false);
    expect(filters(other).some((f) => f.includes('AccountingDocument eq'))).toBe(false);

    const paid = await invoice(key(1));
    expect(paid).toMatchObject({ invoice_status: 'paid', open_amount: '0.0' });
    expect(paid.payments).toEqual([expect.objectContaining({ amount: '200.0', payment_date: '2026-01-05', source: 'ERP', external_id: `ERP-CLEARING-1400000099-${key(1)}` })]);
    const events = (await restApi(app, company).get(`/api/v1/invoices/${paid.id}/events`).expect(200)).body;
    expect(JSON.stringify(events)).toMatch(/"from_status":"sent","to_status":"paid"/);
    expect((await invoice(key(2))).invoice_status).toBe('sent');
    expect((await invoice(key(50))).invoice_status).toBe('sent');
    expect((await erpApi(app, company).get(`/api/v1/erp_connections/${id}`).expect(200)).body.erp_connection.watermarks.reconciled).toBe(today());

    // Again: nothing booked twice; the vanished item is reported again.
    expect(await runPull(app, company, id, 'full')).toMatchObject({ counts: { reconciliation: { missing: 1, cleared: 0, not_found: 1 }, clearings: { payments: 0 } } });
    expect(await count('SELECT count(*) AS n FROM payments')).toBe(1);

    // A deleted connection takes its record of what it pulled along; the invoices stay.
    await erpApi(app, company).delete(`/api/v1/erp_connections/${otherId}`).expect(204);
    expect(await count('SELECT count(*) AS n FROM erp_pulled_invoices WHERE connection_id = $1', [uuidOf(otherId)])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM erp_pulled_invoices WHERE connection_id = $1', [uuidOf(id)])).toBe(4);
    expect((await invoice(key(50))).invoice_status).toBe('sent');
  });

  it('asks by the external_id’s parts where no ERP key was recorded, and reports an invoice it cannot ask for', async () => {
    const server = await sap();
    server.items = [1, 2, 3].map((n) => sapItem(n));
    const id = await connect(server);
    await runPull(app, company, id);
    // Pulled before keys were recorded (the migration's backfill reads them back from the external_id)…
    await db.query(`UPDATE erp_pulled_invoices SET erp_key = '[]'::jsonb`);
    // …and one whose external_id does not split into the mapping's four key properties.
    await db.query(`UPDATE invoices SET external_id = external_id || '-X' WHERE external_id = $1`, [key(3)]);
    server.items = [];
    server.touch();
    const run = await runPull(app, company, id, 'full');
    expect(run).toMatchObject({ status: 'succeeded', counts: { reconciliation: { missing: 3, cleared: 0, not_found: 3 } } });
    expect(run.errors).toContainEqual({ entity: 'receivables', key: `${key(3)}-X`, message: expect.stringMatching(/its key does not fit the mapping's 4 key properties/) });
    const byKey = filters(server).filter((f) => f.includes('AccountingDocument eq'));
    expect(byKey).toHaveLength(1);
    expect(byKey[0]).toContain(`(${keyClause(1)})`);
    expect(byKey[0]).toContain(`(${keyClause(2)})`);
  });

  it('a scheduled run becomes a full one when the last reconciliation is ERP_RECONCILE_EVERY_DAYS (7) old', async () => {
    const server = await sap();
    server.items = [sapItem(1)];
    const id = await connect(server, { schedule: '*/15 * * * *' });
    expect(await runPull(app, company, id)).toMatchObject({ watermark_to: { reconciled: today() } });
    const pulls = app.get(ErpPullService);
    const scheduled = async () => {
      await db.query(`UPDATE erp_connections SET next_pull_at = now() - interval '1 second'`);
      expect(await pulls.enqueueDue()).toBe(1);
      const [run] = (await erpApi(app, company).get(`/api/v1/erp_connections/${id}/pulls`).expect(200)).body.pull_runs;
      await pulls.handleJob({ companyId: uuidOf(company.id), runId: uuidOf(run.id) });
      return run;
    };
    expect(await scheduled()).toMatchObject({ trigger: 'schedule', mode: 'incremental' });
    const sixDays = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    await db.query(`UPDATE erp_connections SET watermarks = watermarks || jsonb_build_object('reconciled', $1::text)`, [sixDays]);
    expect(await scheduled()).toMatchObject({ mode: 'incremental' });
    const sevenDays = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    await db.query(`UPDATE erp_connections SET watermarks = watermarks || jsonb_build_object('reconciled', $1::text)`, [sevenDays]);
    expect(await scheduled()).toMatchObject({ mode: 'full' });
    expect((await erpApi(app, company).get(`/api/v1/erp_connections/${id}`).expect(200)).body.erp_connection.watermarks.reconciled).toBe(today());
  });
});

describe('a receivables mapping without change and clearing dates', () => {
  it('reads the open list every time, writes only what differs from what is stored, and settles what left the list', async () => {
    const server = await sap();
    server.items = [1, 2, 3].map((n) => sapItem(n));
    const id = await connect(server, { mapping: { receivables: { change_date: null, clearing_date: null } } });
    const connection = (await erpApi(app, company).get(`/api/v1/erp_connections/${id}`).expect(200)).body.erp_connection;
    expect(connection.mapping.receivables).toMatchObject({ change_date: null, clearing_date: null, open_filter: 'IsCleared eq false' });

    expect(await runPull(app, company, id)).toMatchObject({ status: 'succeeded', counts: { receivables: { created: 3 } } });
    const events = await count('SELECT count(*) AS n FROM invoice_events');
    server.items[2] = { ...server.items[2], AmountInTransactionCurrency: '99.000' };
    server.touch();
    const second = await runPull(app, company, id);
    expect(second).toMatchObject({ status: 'succeeded', mode: 'incremental', counts: { receivables: { created: 0, updated: 1, unchanged: 2 }, reconciliation: { missing: 0 } } });
    expect(await count('SELECT count(*) AS n FROM invoice_events')).toBe(events + 1);
    expect((await invoice(key(3))).open_amount).toBe('99.0');

    // Item 2 cleared: it leaves the open list, and is asked for by key.
    server.items[1] = { ...server.items[1], IsCleared: true, ClearingDate: '2026-01-20', ClearingAccountingDocument: '1400000002' };
    server.touch();
    expect(await runPull(app, company, id)).toMatchObject({ status: 'succeeded', counts: { reconciliation: { missing: 1, cleared: 1, not_found: 0 }, clearings: { settled: 1 } } });
    // Without a clearing date in the mapping, the payment is dated the day the pull found it.
    expect(await invoice(key(2))).toMatchObject({ invoice_status: 'paid', payments: [expect.objectContaining({ payment_date: today() })] });

    const all = filters(server);
    expect(all.filter((f) => !f.includes('AccountingDocument eq'))).toEqual(Array(3).fill("(FinancialAccountType eq 'D') and (IsCleared eq false)"));
    const select = new URL(server.requests.filter((r) => r.url.startsWith(ITEMS_PATH))[0].url, server.origin).searchParams.get('$select')!.split(',');
    expect(select).not.toContain('LastChangeDate');
    expect(select).not.toContain('ClearingDate');
    const watermarks = (await erpApi(app, company).get(`/api/v1/erp_connections/${id}`).expect(200)).body.erp_connection.watermarks;
    expect(watermarks).toEqual({ customers: '2026-01-10', reconciled: today() });
  });
});

describe('settling and reopening', () => {
  it('go through the transition table for every status at once, with their events', async () => {
    const server = await sap();
    server.items = [1, 2, 3, 4, 5, 6].map((n) => sapItem(n));
    const id = await connect(server);
    await runPull(app, company, id);
    await runPull(app, company, id); // the clearing query runs from the second pull on
    const statuses: Record<number, string> = { 1: 'due', 2: 'reminder1_sent', 3: 'written_off', 4: 'archived', 5: 'sent' };
    for (const [n, status] of Object.entries(statuses)) await db.query(`UPDATE invoices SET status = $1 WHERE external_id = $2`, [status, key(Number(n))]);

    for (const n of [1, 2, 3, 4, 5]) server.items[n - 1] = { ...server.items[n - 1], IsCleared: true, ClearingDate: today(), ClearingAccountingDocument: `14000000${n}0` };
    server.touch();
    const cleared = await runPull(app, company, id);
    expect(cleared).toMatchObject({ status: 'succeeded', counts: { clearings: { payments: 4, settled: 4, reopened: 0 } } });
    const rows: Array<{ external_id: string; status: string; status_before_paid: string | null }> = await db.query(
      `SELECT external_id, status, status_before_paid FROM invoices ORDER BY external_id`,
    );
    expect(rows.map((r) => [r.status, r.status_before_paid])).toEqual([
      ['paid', 'due'],
      ['paid', 'reminder1_sent'],
      ['paid', 'written_off'],
      ['archived', null],
      ['paid', 'sent'],
      ['sent', null],
    ]);
    const moved: Array<{ from_status: string; to_status: string; actor_id: string }> = await db.query(
      `SELECT from_status, to_status, actor_id FROM invoice_events WHERE kind = 'status_changed' ORDER BY from_status`,
    );
    expect(moved).toEqual(['due', 'reminder1_sent', 'sent', 'written_off'].map((from) => ({ from_status: from, to_status: 'paid', actor_id: cleared.id })));

    // The clearings of items 1 and 2 are reset: back where they were before they were paid.
    for (const n of [1, 2]) server.items[n - 1] = { ...server.items[n - 1], IsCleared: false, ClearingDate: null, ClearingAccountingDocument: '', LastChangeDate: today() };
    server.touch();
    expect(await runPull(app, company, id)).toMatchObject({ counts: { clearings: { reopened: 2 } } });
    expect((await invoice(key(1))).invoice_status).toBe('due');
    expect((await invoice(key(2))).invoice_status).toBe('reminder1_sent');
    expect(await db.query(`SELECT status_before_paid FROM invoices WHERE status IN ('due', 'reminder1_sent')`)).toEqual([{ status_before_paid: null }, { status_before_paid: null }]);
    expect(await count(`SELECT count(*) AS n FROM invoice_events WHERE kind = 'status_changed' AND from_status = 'paid'`)).toBe(2);
  });
});

describe('run counts', () => {
  it('count only batches that committed: a batch rolled back adds nothing to the run', async () => {
    const server = await sap();
    server.items = Array.from({ length: 300 }, (_, n) => sapItem(n));
    const id = await connect(server, { page_size: 100 });
    // The database refuses the progress of any batch that would take the run past 150 records.
    await db.query(`CREATE FUNCTION refuse_big_runs() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await db.query(`CREATE TRIGGER refuse_big_runs BEFORE UPDATE ON erp_pull_runs FOR EACH ROW
                    WHEN (NEW.status = 'running' AND NEW.created > 150) EXECUTE FUNCTION refuse_big_runs()`);
    try {
      const run = await runPull(app, company, id);
      expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/refused by the test/) });
      const committed = (await count('SELECT count(*) AS n FROM invoices')) + (await count('SELECT count(*) AS n FROM customers'));
      expect(committed).toBe(101);
      expect(run.created).toBe(committed);
      expect(run.counts.receivables.created).toBe(100);
    } finally {
      await db.query(`DROP TRIGGER refuse_big_runs ON erp_pull_runs; DROP FUNCTION refuse_big_runs()`);
    }
  });
});

describe('watermarks reset during a run', () => {
  it('the run cannot store its watermarks over the reset: it fails, and the next run reads everything', async () => {
    const server = await sap();
    server.items = [sapItem(1)];
    const id = await connect(server);
    expect(await runPull(app, company, id)).toMatchObject({ status: 'succeeded' });
    const path = `/api/v1/erp_connections/${id}`;
    let patched = false;
    server.beforeHandle = async (target) => {
      if (patched || !target.startsWith(ITEMS_PATH)) return;
      patched = true;
      // Another mapping: the watermarks say nothing about it any more.
      await erpApi(app, company).patch(path, { mapping: { receivables: { filter: "FinancialAccountType eq 'D' and CompanyCode eq '1010'" } } }).expect(200);
    };
    const run = await runPull(app, company, id);
    expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/^the connection was pointed at another system, service or mapping during the run/) });
    expect((await erpApi(app, company).get(path).expect(200)).body.erp_connection.watermarks).toEqual({});
    const next = await runPull(app, company, id);
    expect(next).toMatchObject({ status: 'succeeded', watermark_from: {} });
    expect(filters(server).pop()).toBe("(FinancialAccountType eq 'D' and CompanyCode eq '1010') and (IsCleared eq false)");
  });
});

describe('resuming an interrupted run', () => {
  async function interrupted() {
    const server = await sap();
    server.items = Array.from({ length: 20 }, (_, n) => sapItem(n));
    const id = await connect(server, { schedule: '0 3 * * *' });
    const started = await erpApi(app, company).post(`/api/v1/erp_connections/${id}/pulls`).expect(202);
    const runId = uuidOf(started.body.pull_run.id);
    // Its worker took it and died: running, and no sign of life for an hour.
    await db.query(`UPDATE erp_pull_runs SET status = 'running', started_at = now() - interval '1 hour', heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [runId]);
    return { id, runId, publicRunId: started.body.pull_run.id as string };
  }

  it('through the schedule: the due run resumes the dead one', async () => {
    const { id, runId, publicRunId } = await interrupted();
    await db.query(`UPDATE erp_connections SET next_pull_at = now() - interval '1 second'`);
    const pulls = app.get(ErpPullService);
    expect(await pulls.enqueueDue()).toBe(1);
    const [resumed, dead] = (await erpApi(app, company).get(`/api/v1/erp_connections/${id}/pulls`).expect(200)).body.pull_runs;
    expect(resumed).toMatchObject({ trigger: 'resume', status: 'queued', resumed_from: publicRunId });
    expect(dead).toMatchObject({ id: publicRunId, status: 'failed', error: expect.stringMatching(/^interrupted: no sign of life since/) });
    await pulls.handleJob({ companyId: uuidOf(company.id), runId: uuidOf(resumed.id) });
    expect((await erpApi(app, company).get(`/api/v1/erp_connections/${id}/pulls/${resumed.id}`).expect(200)).body.pull_run).toMatchObject({ status: 'succeeded', created: 21 });
    expect(await count('SELECT count(*) AS n FROM erp_pull_runs WHERE id = $1', [runId])).toBe(1);
  });

  it('through a retry of its queue job: a dead run is resumed, a live one is left alone', async () => {
    const { id, runId, publicRunId } = await interrupted();
    const pulls = app.get(ErpPullService);
    // Alive (a fresh heartbeat): the retried job leaves it to its worker.
    await db.query(`UPDATE erp_pull_runs SET heartbeat_at = now() WHERE id = $1`, [runId]);
    await pulls.handleJob({ companyId: uuidOf(company.id), runId });
    expect(await count(`SELECT count(*) AS n FROM erp_pull_runs`)).toBe(1);
    // Dead: pg-boss delivers the job again (retryLimit 1), and the retry resumes it.
    await db.query(`UPDATE erp_pull_runs SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [runId]);
    await pulls.handleJob({ companyId: uuidOf(company.id), runId });
    const [resumed, dead] = (await erpApi(app, company).get(`/api/v1/erp_connections/${id}/pulls`).expect(200)).body.pull_runs;
    expect(resumed).toMatchObject({ trigger: 'resume', status: 'succeeded', resumed_from: publicRunId, created: 21 });
    expect(dead).toMatchObject({ status: 'failed', error: expect.stringMatching(/^interrupted/) });
  });
});

describe('the schedule fires once', () => {
  it('a scheduler on another replica holding the connection makes this one skip it at once (SKIP LOCKED), not wait or start a second run', async () => {
    const server = await sap();
    server.items = [sapItem(1)];
    const id = await connect(server, { schedule: '*/15 * * * *' });
    await db.query(`UPDATE erp_connections SET next_pull_at = now() - interval '1 second'`);
    const other = db.createQueryRunner();
    await other.connect();
    try {
      await other.startTransaction();
      await other.query(`SELECT id FROM erp_connections WHERE id = $1 FOR UPDATE`, [uuidOf(id)]);
      const pulls = app.get(ErpPullService);
      // Without SKIP LOCKED this would wait for the other transaction (and time out here); without a
      // lock at all it would start a run of its own.
      let timer: NodeJS.Timeout | undefined;
      const blocked = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('blocked'), 10_000)));
      const skipped = await Promise.race([pulls.enqueueDue(), blocked]);
      clearTimeout(timer);
      expect(skipped).toBe(0);
      // The other replica advances the schedule and commits: nothing is due any more.
      await other.query(`UPDATE erp_connections SET next_pull_at = now() + interval '15 minutes' WHERE id = $1`, [uuidOf(id)]);
      await other.commitTransaction();
      expect(await pulls.enqueueDue()).toBe(0);
      expect(await count('SELECT count(*) AS n FROM erp_pull_runs')).toBe(0);
    } finally {
      if (other.isTransactionActive) await other.rollbackTransaction();
      await other.release();
    }
  });
});
