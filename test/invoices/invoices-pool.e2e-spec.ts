// The connection pool under contention: more concurrent writes than pool connections, all queued on
// one lock whose holder hits a taken external_id, answer 409 each (the conflict is looked up on the
// holder's own connection, not on a second one the full pool would never give); and a request that
// cannot get a connection or a lock in time answers 503 with Retry-After instead of waiting forever.
import pg from 'pg';
import { createContact, createCustomer, errorFields, expectProblem } from '../support/factories.js';
import {
  type InvoiceApi,
  invoiceApi,
  invoiceRow,
  invoiceSuiteConfig,
  nestedCustomer,
  storedFiles,
  tableCounts,
} from '../support/invoice-factories.js';
import { testConfig, testDatabaseUrl } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

const POOL = 4;
/** Three times the pool: the lock holder's lookup would need a connection none of the others gives back. */
const CONCURRENT = 3 * POOL;
const config = {
  ...invoiceSuiteConfig('pool'),
  database: { ...testConfig().database, poolMax: POOL, acquireTimeoutMs: 1_500, lockTimeoutMs: 3_000 },
};

describe('invoices under pool contention', () => {
  let api: InvoiceApi;
  let customerId: string;

  const t = useTestApp(config, { company: true });
  beforeEach(async () => {
    api = invoiceApi(t.app, t.company);
    customerId = (await createCustomer(t.app, t.company)).id;
  });

  const sentInvoice = (fields: Record<string, string> = {}) =>
    api.createOk({ customer_id: customerId, total: '100', 'options[autoskip_shipping]': 'true', ...fields });

  it(`answers ${CONCURRENT} concurrent payments with a taken external_id on one invoice with 409 each`, async () => {
    const invoice = await sentInvoice();
    const first = (await api.payForm(invoice.id, { amount: '10', external_id: 'BANK-1' }).expect(201)).body.invoice.payments[0];
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, () => api.payForm(invoice.id, { amount: '5', external_id: 'bank-1' })),
    );
    for (const res of answers) {
      expectProblem(res, 409);
      expect(errorFields(res)).toEqual(['external_id']);
      expect(res.body).toMatchObject({ code: 'payment.external_id_taken', existing_id: first.id, invoice_id: invoice.id });
    }
    expect(await tableCounts(t.app)).toMatchObject({ payments: 1 });
    expect(await invoiceRow(t.app, invoice.id)).toMatchObject({ paid_amount: '10.00', open_amount: '90.00' });
  });

  it(`answers ${CONCURRENT} concurrent PATCHes to a taken external_id with 409 each`, async () => {
    const taken = await sentInvoice({ external_id: 'RE-1' });
    const invoice = await sentInvoice({ external_id: 'RE-2' });
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => api.patchForm(invoice.id, { external_id: 're-1' })));
    for (const res of answers) {
      expectProblem(res, 409);
      expect(res.body).toMatchObject({ code: 'invoice.external_id_taken', existing_id: taken.id });
    }
    expect((await api.invoice(invoice.id).expect(200)).body.invoice.external_id).toBe('RE-2');
  });

  it(`changes the contact in ${CONCURRENT} concurrent PATCHes on one invoice`, async () => {
    const invoice = await sentInvoice();
    const contact = await createContact(t.app, t.company, customerId);
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => api.patchForm(invoice.id, { contact_id: contact.id })));
    expect(answers.map((res) => res.status)).toEqual(Array(CONCURRENT).fill(200));
    expect((await api.invoice(invoice.id).expect(200)).body.invoice.contact.id).toBe(contact.id);
  });

  it(`answers ${CONCURRENT} concurrent extended creates of one new customer with a taken invoice external_id with 409 each, storing nothing`, async () => {
    const taken = await sentInvoice({ external_id: 'RE-1' });
    const before = await tableCounts(t.app);
    const files = await storedFiles(t.company);
    const fields = { ...nestedCustomer({ 'customer[external_id]': 'K-NEW' }), external_id: 'RE-1', total: '50' };
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => api.create(fields)));
    for (const res of answers) {
      expectProblem(res, 409);
      expect(res.body).toMatchObject({ code: 'invoice.external_id_taken', existing_id: taken.id });
    }
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await storedFiles(t.company)).toEqual(files);
  });

  it('answers 503 with Retry-After when neither a lock nor a connection comes in time, and records nothing', async () => {
    const invoice = await sentInvoice();
    // Another session holds the invoice's row lock: every payment queues on it, holding a pool connection.
    const holder = new pg.Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM invoices WHERE id = $1 FOR UPDATE', [invoice.id.slice(4)]);
      const answers = await Promise.all(Array.from({ length: POOL + 3 }, () => api.payForm(invoice.id, { amount: '5' })));
      for (const res of answers) {
        expectProblem(res, 503);
        expect(res.body.code).toBe('database.busy');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect(await tableCounts(t.app)).toMatchObject({ payments: 0 });
    // The pool recovered: the next payment goes through.
    await api.payForm(invoice.id, { amount: '5' }).expect(201);
  });
});
