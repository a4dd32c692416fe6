// Pulls from a local SAP stand-in end to end: every auth method, V2 and V4 paging, the mapping of
// every field, incremental and idempotent upserts, clearings as payments, retries, a failing run and a
// killed run resumed without duplicates, and the schedule firing once.
import type { INestApplication } from '@nestjs/common';
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DataSource } from 'typeorm';
import { ErpPullService } from '../src/erp-pull/run/erp-pull.service.js';
import { api as restApi } from './support/factories.js';
import { connectionBody, erpApi, erpTestConfig, runPull, sapItem, sapPartner, uuidOf, CLIENT_ID, CLIENT_SECRET, TECH_PASSWORD, TECH_USER } from './support/erp.js';
import { type ErpPki, makeErpPki } from './support/pki.js';
import { ITEMS_PATH, SapODataServer, type SapServerOptions } from './support/sap-odata-server.js';
import { dataSource, registerCompany, resetDatabase, startTestApp, type TestCompany, testDatabaseUrl } from './support/test-app.js';

let pki: ErpPki;
let app: INestApplication;
let db: DataSource;
let company: TestCompany;
const servers: SapODataServer[] = [];

async function sap(options: Partial<SapServerOptions> = {}): Promise<SapODataServer> {
  const server = new SapODataServer({
    pki,
    version: 'v2',
    auth: 'oauth',
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    username: TECH_USER,
    password: TECH_PASSWORD,
    ...options,
  });
  servers.push(await server.start());
  return server;
}

async function connect(server: SapODataServer, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await erpApi(app, company).create(connectionBody(server, pki, overrides));
  if (res.status !== 201) throw new Error(`connection not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.erp_connection.id;
}

const count = async (sql: string, params: unknown[] = []) => Number((await db.query(sql, params))[0].n);

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

describe('a first pull (OAuth client credentials, OData V2)', () => {
  it('creates customers, contacts and invoices with every mapped field', async () => {
    const server = await sap({ sapClient: '100' });
    server.partners = [
      sapPartner('17100001', { BusinessPartner: '10100001', BusinessPartnerFullName: 'Muster GmbH' }),
      sapPartner('17100002', { BusinessPartnerFullName: '', OrganizationBPName1: 'Beispiel AG', LastChangeDate: null, address: { StreetName: 'Am Markt', HouseNumber: '', PostalCode: '80331', CityName: 'München', Country: 'DE', email: '', phone: '' } }),
      sapPartner('17100003', { address: null }),
    ];
    server.items = [
      sapItem(1, { AmountInTransactionCurrency: '1190.500', DocumentReferenceID: 'RE-4711', BillingDocument: '90000001', DocumentDate: '2026-01-10', NetDueDate: '2026-02-09' }),
      sapItem(2, { Customer: '17100002', DocumentReferenceID: '', BillingDocument: '', DunningBlockingReason: 'A', NetDueDate: '2026-01-15' }),
      sapItem(3, { AmountInTransactionCurrency: '-50.000' }),
      sapItem(4, { TransactionCurrency: 'USD' }),
      sapItem(5, { Customer: '17199999' }),
    ];
    const id = await connect(server);
    const run = await runPull(app, company, id);

    expect(run).toMatchObject({
      status: 'succeeded',
      trigger: 'manual',
      mode: 'incremental',
      error: null,
      created: 4,
      updated: 0,
      unchanged: 0,
      failed: 2,
      skipped: 2,
      counts: {
        customers: { created: 2, updated: 0, unchanged: 0, failed: 1, skipped: 0 },
        receivables: { created: 2, updated: 0, unchanged: 0, failed: 1, skipped: 2 },
        clearings: { payments: 0, settled: 0, reopened: 0 },
      },
      watermark_from: {},
      watermark_to: { customers: '2026-01-10', receivables: '2026-01-16', clearings: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
    });
    expect(run.errors).toEqual(
      expect.arrayContaining([
        { entity: 'customers', key: '10000003', message: expect.stringMatching(/^no ISO country code/) },
        { entity: 'receivables', key: '1010-2026-1800000005-001', message: 'customer 17199999 is unknown (not among the pulled customers)' },
        { entity: 'receivables', key: null, message: '1 skipped: not a receivable (credit or zero amount)' },
        { entity: 'receivables', key: null, message: "1 skipped: currency USD is not the connection's EUR" },
      ]),
    );
    expect(run.pages).toBe(2);
    expect(run.requests).toBe(3); // token, partners, items

    const rest = restApi(app, company);
    const customer = (await rest.get('/api/v1/customers/find/17100001').expect(200)).body;
    expect(customer).toMatchObject({
      external_id: '17100001',
      customer_number: '17100001',
      additional_number: '10100001',
      name: 'Muster GmbH',
      phone: '+49 30 1234567',
      address: 'Muster GmbH\nHauptstraße 5a\n10115 Berlin\nDE',
      stop_automatic_reminders: false,
      contacts: [expect.objectContaining({ external_id: 'ERP-17100001', name: 'Muster GmbH', email: 'ap-17100001@kunde.example' })],
    });
    const second = (await rest.get('/api/v1/customers/find/17100002').expect(200)).body;
    expect(second).toMatchObject({ name: 'Beispiel AG', phone: null, address: 'Beispiel AG\nAm Markt\n80331 München\nDE', contacts: [] });

    const invoice = (await rest.get('/api/v1/invoices/find/1010-2026-1800000001-001').expect(200)).body.invoice;
    expect(invoice).toMatchObject({
      external_id: '1010-2026-1800000001-001',
      invoice_status: 'sent',
      invoice_number: 'RE-4711',
      additional_number: '90000001',
      total: '1190.5',
      original_total: '1190.5',
      reminder_fees: '0.0',
      open_amount: '1190.5',
      invoice_date: '2026-01-10',
      due_date: '2026-02-09',
      time_for_payment: 30,
      source: 'ERP',
      shipping_mode: 'skip_shipping',
      customer: expect.objectContaining({ external_id: '17100001' }),
      // The ERP's e-mail contact belongs to the customer (shipping writes to the customer's contacts).
      contact: null,
      payments: [],
      dunning_block: null,
    });
    const blocked = (await rest.get('/api/v1/invoices/find/1010-2026-1800000002-001').expect(200)).body.invoice;
    expect(blocked).toMatchObject({ invoice_number: '1800000002', additional_number: null, total: '119.0', due_date: '2026-01-15', contact: null, dunning_block: { reason: 'ERP dunning block A', until: null } });
    const events = (await rest.get(`/api/v1/invoices/${invoice.id}/events`).expect(200)).body;
    expect(JSON.stringify(events)).toContain('erp_pull');

    // What went over the wire.
    const [token, partners, items] = server.requests;
    expect(token.url).toBe('/oauth/token');
    for (const sent of [partners, items]) {
      expect(sent.headers['x-request-id']).toMatch(new RegExp(`^${run.id}-\\d{6}$`));
      expect(sent.headers.accept).toBe('application/json');
      expect(sent.headers['sap-client']).toBe('100');
      expect(sent.url).toContain('sap-client=100');
    }
    const itemQuery = new URL(items.url, server.origin).searchParams;
    expect(itemQuery.get('$filter')).toBe("(FinancialAccountType eq 'D') and (IsCleared eq false)");
    expect(itemQuery.get('$orderby')).toBe('CompanyCode,FiscalYear,AccountingDocument,AccountingDocumentItem');
    expect(itemQuery.get('$top')).toBe('5000');
    expect(itemQuery.get('$inlinecount')).toBe('allpages');
    expect(itemQuery.get('$select')?.split(',')).toEqual(expect.arrayContaining(['AmountInTransactionCurrency', 'NetDueDate', 'IsCleared', 'ClearingDate']));
    const partnerQuery = new URL(partners.url, server.origin).searchParams;
    expect(partnerQuery.get('$expand')).toBe('to_BusinessPartnerAddress,to_BusinessPartnerAddress/to_EmailAddress,to_BusinessPartnerAddress/to_PhoneNumber');
  });
});

const today = () => new Date().toISOString().slice(0, 10);
const itemsRequests = (server: SapODataServer) => server.requests.filter((r) => r.url.startsWith(ITEMS_PATH));
const filterOf = (server: SapODataServer, url: string) => new URL(url, server.origin).searchParams.get('$filter');

describe('incremental pulls', () => {
  async function pulledOnce() {
    const server = await sap();
    server.partners = [sapPartner('17100001')];
    server.items = [1, 2, 3].map((n) => sapItem(n));
    const id = await connect(server);
    expect(await runPull(app, company, id)).toMatchObject({ status: 'succeeded', created: 4 });
    return { server, id };
  }

  it('a repeated pull changes nothing: every record unchanged, no new events', async () => {
    const { server, id } = await pulledOnce();
    const events = await count('SELECT count(*) AS n FROM invoice_events');
    const run = await runPull(app, company, id);
    expect(run).toMatchObject({ status: 'succeeded', created: 0, updated: 0, unchanged: 4, failed: 0, watermark_from: { customers: '2026-01-10', receivables: '2026-01-16' } });
    expect(await count('SELECT count(*) AS n FROM invoice_events')).toBe(events);
    expect(await count('SELECT count(*) AS n FROM invoices')).toBe(3);
    expect(await count('SELECT count(*) AS n FROM customers')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM contacts')).toBe(1);
    // Changed since the watermark − 1 day, open or cleared; the clearing query from its own watermark.
    const [changed, clearings] = itemsRequests(server).slice(-2);
    expect(filterOf(server, changed.url)).toBe("(FinancialAccountType eq 'D') and (LastChangeDate ge datetime'2026-01-15T00:00:00')");
    expect(filterOf(server, clearings.url)).toMatch(/^\(FinancialAccountType eq 'D'\) and \(IsCleared eq true\) and \(ClearingDate ge datetime'\d{4}-\d{2}-\d{2}T00:00:00'\)$/);
    const partners = server.requests.filter((r) => r.url.includes('A_BusinessPartner')).pop()!;
    expect(filterOf(server, partners.url)).toBe("(Customer ne '') and (LastChangeDate ge datetime'2026-01-09T00:00:00' or CreationDate ge datetime'2026-01-09T00:00:00')");
  });

  it('takes over changed and new records, and moves the watermark', async () => {
    const { server, id } = await pulledOnce();
    server.items[0] = { ...server.items[0], AmountInTransactionCurrency: '150.250', NetDueDate: '2026-03-01', LastChangeDate: '2026-01-20' };
    server.items.push(sapItem(4, { LastChangeDate: '2026-01-21' }));
    server.partners[0] = { ...server.partners[0], LastChangeDate: '2026-01-22', address: { ...server.partners[0].address!, email: 'neu@kunde.example' } };
    server.touch();
    const run = await runPull(app, company, id);
    expect(run).toMatchObject({
      status: 'succeeded',
      counts: { customers: { created: 0, updated: 1, unchanged: 0 }, receivables: { created: 1, updated: 1, unchanged: 2 } },
      watermark_to: { customers: '2026-01-22', receivables: '2026-01-21' },
    });
    const rest = restApi(app, company);
    const invoice = (await rest.get('/api/v1/invoices/find/1010-2026-1800000001-001').expect(200)).body.invoice;
    expect(invoice).toMatchObject({ original_total: '150.25', open_amount: '150.25', due_date: '2026-03-01', time_for_payment: 45 });
    expect((await rest.get('/api/v1/contacts/find/ERP-17100001').expect(200)).body.contact.email).toBe('neu@kunde.example');
    const kinds = (await rest.get(`/api/v1/invoices/${invoice.id}/events`).expect(200)).body;
    expect(JSON.stringify(kinds)).toContain('"updated"');
  });

  it('a full pull reads every customer and open item again, whatever the watermark', async () => {
    const { server, id } = await pulledOnce();
    const run = await runPull(app, company, id, 'full');
    expect(run).toMatchObject({ status: 'succeeded', mode: 'full', unchanged: 4 });
    const [full] = itemsRequests(server).slice(-2);
    expect(filterOf(server, full.url)).toBe("(FinancialAccountType eq 'D') and (IsCleared eq false)");
  });
});

describe('clearings', () => {
  it('books a cleared item as a payment and settles the invoice; once; and undoes a reset clearing', async () => {
    const server = await sap();
    server.partners = [sapPartner('17100001')];
    server.items = [sapItem(1, { AmountInTransactionCurrency: '500.000' }), sapItem(2)];
    const id = await connect(server);
    await runPull(app, company, id);
    const rest = restApi(app, company);
    const before = (await rest.get('/api/v1/invoices/find/1010-2026-1800000001-001').expect(200)).body.invoice;
    await rest.postForm(`/api/v1/invoices/${before.id}/payments`, { amount: '100', payment_date: '2026-01-20' }).expect(201);

    // Cleared today, LastChangeDate untouched: only the clearing query sees it.
    server.items[0] = { ...server.items[0], IsCleared: true, ClearingDate: today(), ClearingAccountingDocument: '1400000077' };
    server.touch();
    const run = await runPull(app, company, id);
    expect(run).toMatchObject({ status: 'succeeded', counts: { clearings: { payments: 1, settled: 1, reopened: 0 } } });
    const paid = (await rest.get(`/api/v1/invoices/${before.id}`).expect(200)).body.invoice;
    expect(paid).toMatchObject({ invoice_status: 'paid', open_amount: '0.0' });
    expect(paid.payments).toEqual([
      expect.objectContaining({ amount: '100.0', source: 'API' }),
      expect.objectContaining({ external_id: '1010-2026-1800000001-001'.replace(/^/, 'ERP-CLEARING-1400000077-'), amount: '400.0', payment_date: today(), source: 'ERP', note: 'Cleared in the ERP by document 1400000077' }),
    ]);
    const events = (await rest.get(`/api/v1/invoices/${before.id}/events`).expect(200)).body;
    expect(JSON.stringify(events)).toMatch(/"to_status":"paid"/);

    expect(await runPull(app, company, id)).toMatchObject({ status: 'succeeded', counts: { clearings: { payments: 0, settled: 0 } } });
    expect(await count('SELECT count(*) AS n FROM payments')).toBe(2);

    // The clearing is reset in the ERP: the item is open again and changed.
    server.items[0] = { ...server.items[0], IsCleared: false, ClearingDate: null, ClearingAccountingDocument: '', LastChangeDate: today() };
    server.touch();
    expect(await runPull(app, company, id)).toMatchObject({ status: 'succeeded', counts: { clearings: { reopened: 1 } } });
    const reopened = (await rest.get(`/api/v1/invoices/${before.id}`).expect(200)).body.invoice;
    expect(reopened).toMatchObject({ invoice_status: 'sent', open_amount: '400.0', payments: [expect.objectContaining({ source: 'API' })] });
  });

  it('does not import an item that was cleared before it was ever pulled open', async () => {
    const server = await sap();
    server.partners = [sapPartner('17100001')];
    server.items = [sapItem(1)];
    const id = await connect(server);
    await runPull(app, company, id);
    server.items.push(sapItem(2, { IsCleared: true, ClearingDate: today(), ClearingAccountingDocument: '1400000001', LastChangeDate: today() }));
    server.touch();
    const run = await runPull(app, company, id);
    expect(run).toMatchObject({ status: 'succeeded', counts: { receivables: { created: 0, skipped: 2 } } });
    expect(await count('SELECT count(*) AS n FROM invoices')).toBe(1);
  });
});

describe('auth methods end to end', () => {
  it('Basic over OData V4, following server paging and next links that name an internal host', async () => {
    const server = await sap({ version: 'v4', auth: 'basic', serverPageSize: 40, nextLinkOrigin: 'https://s4h-internal.corp:44300' });
    server.partners = [sapPartner('17100001'), sapPartner('17100002')];
    server.items = Array.from({ length: 230 }, (_, n) => sapItem(n, { Customer: n % 2 ? '17100001' : '17100002', AmountInTransactionCurrency: `${n + 1}.5` }));
    const id = await connect(server, { page_size: 100 });
    const run = await runPull(app, company, id);
    expect(run).toMatchObject({ status: 'succeeded', created: 232, failed: 0 });
    // Partners in one page; items in $top windows of 100, each in server pages of 40: 40 40 20 | 40 40 20 | 30.
    expect(run.pages).toBe(1 + 7);
    expect(await count('SELECT count(DISTINCT lower(external_id)) AS n FROM invoices')).toBe(230);
    expect(await count(`SELECT count(*) AS n FROM invoices WHERE original_total = 230.5`)).toBe(1);
    expect(server.requests.every((r) => r.headers.authorization === `Basic ${Buffer.from(`${TECH_USER}:${TECH_PASSWORD}`).toString('base64')}`)).toBe(true);
    expect(server.requests.every((r) => r.status === 200)).toBe(true);
    // V4 literals on the next, incremental pull.
    await runPull(app, company, id);
    expect(filterOf(server, itemsRequests(server).slice(-2)[0].url)).toBe("(FinancialAccountType eq 'D') and (LastChangeDate ge 2026-01-15)");
  });

  it('X.509 client certificate; a certificate the ERP does not trust fails the run with a TLS error', async () => {
    const server = await sap({ auth: 'x509' });
    server.partners = [sapPartner('17100001')];
    server.items = [sapItem(1)];
    const id = await connect(server);
    expect(await runPull(app, company, id)).toMatchObject({ status: 'succeeded', created: 2 });
    expect(server.requests.every((r) => r.clientCertCn === 'RECEIVABLES_PULL')).toBe(true);

    await erpApi(app, company).patch(`/api/v1/erp_connections/${id}`, { client_certificate: pki.rogueClientCert, private_key: pki.rogueClientKey }).expect(200);
    const failed = await runPull(app, company, id);
    expect(failed.status).toBe('failed');
    // Refused again on every attempt: not retried (not transient); the next run tries again.
    expect(failed.error).toMatch(/^TLS: 127\.0\.0\.1:\d+ .*it most likely does not accept our client certificate \(issued by a CA it trusts\? imported in the ERP\?\)$/);
    expect(failed.requests).toBe(1);
  });

  it('OAuth: an access token that expires mid-run is refreshed exactly once', async () => {
    const server = await sap();
    server.partners = [sapPartner('17100001')];
    server.items = [sapItem(1)];
    let expired = false;
    server.beforeHandle = (target) => {
      if (!expired && target.startsWith(ITEMS_PATH)) {
        expired = true;
        server.expireTokens();
      }
    };
    const id = await connect(server);
    expect(await runPull(app, company, id)).toMatchObject({ status: 'succeeded', created: 2 });
    expect(server.tokenRequests).toEqual([
      expect.objectContaining({ form: true, basic: false, ok: true }),
      expect.objectContaining({ form: true, basic: false, ok: true }),
    ]);
    expect(itemsRequests(server).map((r) => r.status)).toEqual([401, 200]);
  });

  it('OAuth: a wrong client secret fails the run saying the token endpoint refused it', async () => {
    const server = await sap();
    const id = await connect(server, { client_secret: 'not-the-secret' });
    const run = await runPull(app, company, id);
    expect(run).toMatchObject({ status: 'failed', created: 0 });
    expect(run.error).toMatch(/^The token endpoint \/oauth\/token refused the client credentials: 401 \(invalid_client/);
    expect(server.tokenRequests).toHaveLength(1);
  });
});

describe('resilience', () => {
  it('retries throttling and server errors within a run', async () => {
    const server = await sap({ auth: 'basic' });
    server.partners = [sapPartner('17100001')];
    server.items = [sapItem(1)];
    server.faults.push({ kind: 'status', status: 429, retryAfter: '1', match: /A_Operational/, times: 1 }, { kind: 'status', status: 502, match: /A_Operational/, times: 1 });
    const id = await connect(server);
    const run = await runPull(app, company, id);
    expect(run).toMatchObject({ status: 'succeeded', created: 2, requests: 4 });
    const [throttled, bad, ok] = itemsRequests(server);
    expect([throttled.status, bad.status, ok.status]).toEqual([429, 502, 200]);
    expect(bad.at - throttled.at).toBeGreaterThanOrEqual(990);
  });

  it('a run failing midway keeps its whole batches and the old watermark; the next run goes on without duplicates', async () => {
    const server = await sap({ auth: 'basic' });
    server.partners = [sapPartner('17100001')];
    server.items = Array.from({ length: 250 }, (_, n) => sapItem(n));
    server.faults.push({ kind: 'status', status: 500, match: /A_Operational.*%24skip=200|A_Operational.*\$skip=200/, times: 100 });
    const id = await connect(server, { page_size: 100 });
    const failed = await runPull(app, company, id);
    expect(failed).toMatchObject({ status: 'failed', created: 201, watermark_to: { customers: '2026-01-10' } });
    expect(failed.error).toMatch(/^500 from .*A_OperationalAcctgDocItemCube.* \(gave up after 4 attempts\)$/);
    expect(await count('SELECT count(*) AS n FROM invoices')).toBe(200);
    const connection = (await erpApi(app, company).get(`/api/v1/erp_connections/${id}`).expect(200)).body.erp_connection;
    expect(connection.watermarks).toEqual({ customers: '2026-01-10' });

    server.faults = [];
    const resumed = await runPull(app, company, id);
    expect(resumed).toMatchObject({ status: 'succeeded', watermark_from: { customers: '2026-01-10' }, counts: { receivables: { created: 50, unchanged: 200 } } });
    expect(await count('SELECT count(*) AS n FROM invoices')).toBe(250);
    expect(await count('SELECT count(DISTINCT lower(external_id)) AS n FROM invoices')).toBe(250);
  });

  it('a pull killed midway (SIGKILL) is resumed from the last committed watermark without duplicates', async () => {
    const server = await sap({ auth: 'basic' });
    server.partners = [sapPartner('17100001')];
    server.items = Array.from({ length: 300 }, (_, n) => sapItem(n));
    // The third window never answers: the process is killed while it waits.
    server.faults.push({ kind: 'stall', match: /A_Operational.*(%24|\$)skip=200/, times: 1 });
    const id = await connect(server, { page_size: 100 });
    const api = erpApi(app, company);
    const started = await api.post(`/api/v1/erp_connections/${id}/pulls`).expect(202);
    const runId: string = started.body.pull_run.id;

    const child = fork(fileURLToPath(new URL('./support/erp-pull-child.ts', import.meta.url)), [JSON.stringify({ databaseUrl: testDatabaseUrl(), companyId: uuidOf(company.id), runId: uuidOf(runId) })], {
      execArgv: ['--import', fileURLToPath(new URL('./support/ts-loader.mjs', import.meta.url))],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    try {
      // Both batches written (two are written at a time, so the progress of the first may already count the second page).
      await until(async () => (await count('SELECT count(*) AS n FROM invoices')) >= 200, 60_000);
      await until(async () => server.requests.some((r) => r.status === -2), 10_000);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    } finally {
      kill(child);
    }
    expect(await count('SELECT count(*) AS n FROM invoices')).toBe(200);
    const killed = (await api.get(`/api/v1/erp_connections/${id}/pulls/${runId}`).expect(200)).body.pull_run;
    expect(killed).toMatchObject({ status: 'running', created: 201, watermark_to: { customers: '2026-01-10' } });

    // A new pull while the killed one still looks alive is refused; once its heartbeat is stale, it resumes.
    const busy = await api.post(`/api/v1/erp_connections/${id}/pulls`).expect(409);
    expect(busy.body).toMatchObject({ code: 'erp_pull.already_running', pull_run_id: runId });
    await db.query(`UPDATE erp_pull_runs SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [uuidOf(runId)]);
    const resumed = await runPull(app, company, id);
    expect(resumed).toMatchObject({ status: 'succeeded', resumed_from: runId, counts: { receivables: { created: 100, unchanged: 200 } } });
    expect((await api.get(`/api/v1/erp_connections/${id}/pulls/${runId}`).expect(200)).body.pull_run).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^interrupted: no sign of life since .* the next run resumes from the last committed watermark$/),
    });
    expect(await count('SELECT count(*) AS n FROM invoices')).toBe(300);
    expect(await count('SELECT count(DISTINCT lower(external_id)) AS n FROM invoices')).toBe(300);
    expect(await count(`SELECT count(*) AS n FROM invoice_events WHERE kind = 'created'`)).toBe(300);
    const list = (await api.get(`/api/v1/erp_connections/${id}/pulls`).expect(200)).body;
    expect(list.pull_runs.map((r: { id: string }) => r.id)).toEqual([resumed.id, runId]);
    expect(list.meta).toMatchObject({ total_count: 2, current_page: 1 });
  }, 90_000);
});

describe('schedule', () => {
  it('a due schedule starts one run, even when two schedulers look at the same time', async () => {
    const server = await sap({ auth: 'basic' });
    server.partners = [sapPartner('17100001')];
    server.items = [sapItem(1)];
    const id = await connect(server, { schedule: '*/15 * * * *' });
    const connection = (await erpApi(app, company).get(`/api/v1/erp_connections/${id}`).expect(200)).body.erp_connection;
    expect(connection).toMatchObject({ schedule: '*/15 * * * *', schedule_time_zone: 'Europe/Berlin', next_pull_at: expect.stringMatching(/:(00|15|30|45):00\+0[12]:00$/) });

    await db.query(`UPDATE erp_connections SET next_pull_at = now() - interval '1 second'`);
    const pulls = app.get(ErpPullService);
    const started = await Promise.all([pulls.enqueueDue(), pulls.enqueueDue(), pulls.enqueueDue()]);
    expect(started.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await pulls.enqueueDue()).toBe(0);
    const [run] = (await erpApi(app, company).get(`/api/v1/erp_connections/${id}/pulls`).expect(200)).body.pull_runs;
    expect(run).toMatchObject({ trigger: 'schedule', status: 'queued' });
    const [job] = await db.query(`SELECT data FROM pgboss.job WHERE name = 'erp-pull'`);
    expect(job.data).toEqual({ companyId: uuidOf(company.id), runId: uuidOf(run.id) });
    const next = (await db.query(`SELECT next_pull_at FROM erp_connections`))[0].next_pull_at as Date;
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime()).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
  });
});

async function until(probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

function kill(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
