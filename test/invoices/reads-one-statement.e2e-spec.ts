// Issue 21: a read by id or a page of customers or invoices is one statement to PostgreSQL (prepared
// under its name), whatever it shows: the customer with its contacts, the invoice with its customer,
// contact, payments, reminders and interest; a full page with its count. Every API client and ERP polling
// the service pays per round trip.
import { jest } from '@jest/globals';
import pg from 'pg';
import { createContact, createCustomer, type Json } from '../support/factories.js';
import { type InvoiceApi, invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';

const swapCase = (text: string) => [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/** The tables of the reads; the credential (cached after the first request) and the job queue are not counted. */
const READ_TABLES = /\b(customers|contacts|invoices|payments|reminders|interest_lines)\b/;

describe('reads in one statement', () => {
  const t = useTestApp(invoiceSuiteConfig('reads-one-statement'), { company: true });
  let api: InvoiceApi;
  let customer: Json;

  beforeEach(async () => {
    api = invoiceApi(t.app, t.company);
    customer = await createCustomer(t.app, t.company, { external_id: 'Kunde-Find-7' });
    await createContact(t.app, t.company, customer.id, { name: 'Erika Mustermann' });
    await createContact(t.app, t.company, customer.id, { name: 'Max Mustermann' });
  });

  /** The statements on the read tables that PostgreSQL received while `read` ran, and its answer. */
  async function statementsOf(read: () => PromiseLike<{ status: number; body: Json }>): Promise<{ names: string[]; body: Json }> {
    await read(); // the credential lookup of the first request is cached from here on
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    try {
      const res = await read();
      expect(res.status).toBe(200);
      const texts = spy.mock.calls.map(([query]) =>
        typeof query === 'string' ? { text: query } : (query as unknown as { text: string; name?: string }),
      );
      return { names: texts.filter((q) => READ_TABLES.test(q.text)).map((q) => q.name ?? `unnamed: ${q.text}`), body: res.body };
    } finally {
      spy.mockRestore();
    }
  }

  it('GET a customer: the customer with both contacts, from one named statement', async () => {
    const { names, body } = await statementsOf(() => api.get(`/api/v1/customers/${customer.id}`));
    expect(names).toEqual(['customers.find_with_contacts']);
    expect(body.contacts.map((c: Json) => c.name)).toEqual(['Erika Mustermann', 'Max Mustermann']);
  });

  it('GET a full page of customers: the page, its contacts and the count, from one named statement', async () => {
    await createCustomer(t.app, t.company, { external_id: 'K-2' });
    const { names, body } = await statementsOf(() => api.get('/api/v1/customers?per_page=1'));
    expect(names).toEqual(['customers.page_with_contacts']);
    expect(body.meta).toMatchObject({ total_count: 2, total_pages: 2 });
    expect(body.customers[0].contacts).toHaveLength(2);
  });

  it('GET an invoice: with its customer, contact, payment, reminder and interest, from one named statement', async () => {
    const contact = (await api.get(`/api/v1/customers/${customer.id}`)).body.contacts[0];
    const invoice = await api.createOk({
      customer_id: customer.id,
      contact_id: contact.id,
      total: '100',
      'options[autoskip_shipping]': 'true',
    });
    await t.db.query(
      `INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, last_sent_at, shipping_mode, fees)
       SELECT company_id, gen_random_uuid(), id, 1, '2026-12-01', '2026-12-01T09:30:00Z', 'post', 2.5 FROM invoices WHERE id = $1`,
      [invoice.id.slice(4)],
    );
    await api.payForm(invoice.id, { amount: '10', payment_date: '03.12.2026' }).expect(201);
    const { names, body } = await statementsOf(() => api.invoice(invoice.id));
    expect(names).toEqual(['invoices.view_by_id']);
    expect(body.invoice).toMatchObject({
      customer: { id: customer.id },
      contact: { id: contact.id },
      accrued_interest: expect.any(String),
    });
    expect(body.invoice.payments).toHaveLength(1);
    expect(body.invoice.reminders).toHaveLength(1);
  });

  it('GET a full page of invoices with a status: the page with all it shows and the count, from one named statement', async () => {
    for (const number of ['R-1', 'R-2', 'R-3'])
      await api.createOk({ customer_id: customer.id, invoice_number: number, total: '10', 'options[autoskip_shipping]': 'true' });
    const { names, body } = await statementsOf(() => api.list('?per_page=2&status=sent'));
    expect(names).toEqual([expect.stringMatching(/^invoices\.view_page_\d+$/)]);
    expect(body.meta).toMatchObject({ total_count: 3, total_pages: 2 });
    expect(body.invoices.map((i: Json) => i.invoice_number)).toEqual(['R-1', 'R-2']);
  });

  it('GET a customer by external_id (in other letters): with both contacts, from one named statement', async () => {
    const { names, body } = await statementsOf(() =>
      api.get(`/api/v1/customers/find/${encodeURIComponent(swapCase(customer.external_id))}`),
    );
    expect(names).toEqual(['customers.find_by_external_id_with_contacts']);
    expect(body.id).toBe(customer.id);
    expect(body.contacts.map((c: Json) => c.name)).toEqual(['Erika Mustermann', 'Max Mustermann']);
  });

  it('GET an invoice by external_id (in other letters): the whole invoice, from one named statement', async () => {
    const invoice = await api.createOk({
      customer_id: customer.id,
      external_id: 'Ext-Find-1',
      total: '100',
      'options[autoskip_shipping]': 'true',
    });
    await api.payForm(invoice.id, { amount: '10', payment_date: '03.12.2026' }).expect(201);
    const { names, body } = await statementsOf(() => api.get('/api/v1/invoices/find/eXT-fIND-1'));
    expect(names).toEqual(['invoices.view_by_external_id']);
    expect(body).toEqual((await api.invoice(invoice.id)).body);
    expect(body.invoice.payments).toHaveLength(1);
  });

  it('a page past the last still tells the total (the one case that counts apart)', async () => {
    await api.createOk({ customer_id: customer.id, invoice_number: 'R-1', total: '10', 'options[autoskip_shipping]': 'true' });
    const res = await api.list('?page=3&per_page=2').expect(200);
    expect(res.body).toEqual({ invoices: [], meta: expect.objectContaining({ current_page: 3, total_count: 1, total_pages: 1 }) });
    const customers = await api.get('/api/v1/customers?page=3').expect(200);
    expect(customers.body.meta).toMatchObject({ current_page: 3, total_count: 1 });
  });
});
