// Tenant isolation for every invoice endpoint: a credential of company B gets, for A's invoice, the
// same 404 as for an id that does not exist, changes nothing of A's, and cannot reference A's
// customers or contacts when it creates or updates its own invoices.
import type { Response } from 'supertest';
import { createContact, createCustomer, errorFields, expectProblem, type Json } from '../support/factories.js';
import {
  type InvoiceApi,
  invoiceApi,
  invoiceSuiteConfig,
  nestedContact,
  nestedCustomer,
  storedFiles,
  type WireEvent,
} from '../support/invoice-factories.js';
import { makePdf } from '../support/pdf.js';
import { registerCompany, type TestCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

const config = invoiceSuiteConfig('tenancy');
const UNKNOWN_INVOICE = 'inv-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const UNKNOWN_PAYMENT = 'pay-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

/** A 404 problem without the parts that name the requested id or the request. */
function notFoundShape(res: Response) {
  expectProblem(res, 404);
  const { detail: _detail, request_id: _requestId, ...rest } = res.body;
  return rest;
}

describe('invoice tenant isolation', () => {
  let a: TestCompany;
  let b: TestCompany;
  let asA: InvoiceApi;
  let asB: InvoiceApi;
  let aCustomer: Json;
  let aContact: Json;
  let aInvoice: Json;
  let aPaymentId: string;
  let bCustomer: Json;
  let bInvoice: Json;

  const t = useTestApp(config);
  beforeEach(async () => {
    a = await registerCompany(t.app, 'Firma A');
    b = await registerCompany(t.app, 'Firma B');
    asA = invoiceApi(t.app, a);
    asB = invoiceApi(t.app, b);
    aCustomer = await createCustomer(t.app, a, { external_id: 'K-SHARED' });
    aContact = await createContact(t.app, a, aCustomer.id, { external_id: 'P-SHARED' });
    const created = await asA.createOk(
      { customer_id: aCustomer.id, contact_id: aContact.id, external_id: 'RE-X', total: '100', 'options[autoskip_shipping]': 'true' },
      { invoice_attachment: await makePdf('Anlage A') },
    );
    aPaymentId = (await asA.payForm(created.id, { amount: '10', external_id: 'BANK-SHARED' }).expect(201)).body.invoice.payments[0].id;
    aInvoice = (await asA.invoice(created.id).expect(200)).body.invoice;
    bCustomer = await createCustomer(t.app, b);
    bInvoice = await asB.createOk({ customer_id: bCustomer.id, total: '50', 'options[autoskip_shipping]': 'true' });
  });

  /** A's invoice, its events and its files, read with A's credential: as they were. */
  async function expectAUnchanged(): Promise<void> {
    await asA.invoice(aInvoice.id).expect(200, { invoice: aInvoice });
    const events: WireEvent[] = (await asA.events(aInvoice.id).expect(200)).body.events;
    expect(events.map((e) => e.kind)).toEqual(['created', 'status_changed', 'payment_recorded']);
    expect(await storedFiles(a)).toHaveLength(2);
  }

  /** Each request as B on A's invoice answers exactly what the same request on an unknown id answers. */
  const endpoints: Array<[string, (api: InvoiceApi, invoiceId: string) => Promise<Response>]> = [
    ['GET /invoices/<id>', (api, id) => api.invoice(id)],
    ['PATCH /invoices/<id> (form)', (api, id) => api.patchForm(id, { additional_number: 'von B' })],
    ['PATCH /invoices/<id> (JSON)', (api, id) => api.patchJson(id, { external_id: 'B-1' })],
    ['GET /invoices/<id>/pdf', (api, id) => api.pdf(id)],
    ['GET /invoices/<id>/attachment', (api, id) => api.attachment(id)],
    ['GET /invoices/<id>/events', (api, id) => api.events(id)],
    ['POST /invoices/<id>/payments', (api, id) => api.payForm(id, { amount: '90' })],
    ['POST /invoices/<id>/payments with Idempotency-Key', (api, id) => api.payForm(id, { amount: '90' }, { 'Idempotency-Key': 'b-pay' })],
    ['DELETE /invoices/<id>/payments/<A’s payment>', (api, id) => api.deletePayment(id, aPaymentId)],
    ['POST /invoices/<id>/release', (api, id) => api.act(id, 'release')],
    ['POST /invoices/<id>/archive', (api, id) => api.act(id, 'archive')],
    ['POST /invoices/<id>/mark_duplicate', (api, id) => api.act(id, 'mark_duplicate')],
    ['POST /invoices/<id>/write_off', (api, id) => api.act(id, 'write_off', { reason: 'B' })],
    ['POST /invoices/<id>/hand_to_collection', (api, id) => api.act(id, 'hand_to_collection', { reason: 'B' })],
    [
      'POST /invoices/<id>/write_off with Idempotency-Key',
      (api, id) => api.act(id, 'write_off', { reason: 'B' }, { 'Idempotency-Key': 'b-write-off' }),
    ],
  ];

  it.each(endpoints)('%s is a 404 like an unknown id and changes nothing', async (_name, call) => {
    const foreign = await call(asB, aInvoice.id);
    const unknown = await call(asB, UNKNOWN_INVOICE);
    expect(notFoundShape(foreign)).toEqual(notFoundShape(unknown));
    expect(foreign.body.detail).not.toContain('RE-X');
    await expectAUnchanged();
  });

  it('find does not see A’s external_id, in any case, and B may use the same one', async () => {
    expect(notFoundShape(await asB.find('RE-X'))).toEqual(notFoundShape(await asB.find('RE-NOTHING')));
    expectProblem(await asB.find('re-x'), 404);
    const own = await asB.createOk({ customer_id: bCustomer.id, external_id: 'RE-X' });
    expect((await asB.find('re-x').expect(200)).body.invoice.id).toBe(own.id);
    expect((await asA.find('re-x').expect(200)).body.invoice.id).toBe(aInvoice.id);
    await expectAUnchanged();
  });

  it('the list shows and counts only B’s invoices, for every filter', async () => {
    for (const query of ['', '?status=sent', `?customer_id=${aCustomer.id}`, '?updated_since=2000-01-01', '?per_page=100']) {
      const res = await asB.list(query).expect(200);
      expect(res.body.invoices.map((i: { id: string }) => i.id)).not.toContain(aInvoice.id);
      expect(res.body.meta.total_count).toBe(query.includes(aCustomer.id) ? 0 : 1);
    }
  });

  it('B’s invoice cannot take A’s payment: deleting it through B’s invoice is a 404', async () => {
    expect(notFoundShape(await asB.deletePayment(bInvoice.id, aPaymentId))).toEqual(
      notFoundShape(await asB.deletePayment(bInvoice.id, UNKNOWN_PAYMENT)),
    );
    await expectAUnchanged();
  });

  it('payment external_ids are per company: B may use A’s', async () => {
    const res = await asB.payForm(bInvoice.id, { amount: '5', external_id: 'bank-shared' }).expect(201);
    expect(res.body.invoice.payments[0].external_id).toBe('bank-shared');
  });

  it('Idempotency-Keys are per company: A’s key does not replay A’s answer to B', async () => {
    await asA.payForm(aInvoice.id, { amount: '1' }, { 'Idempotency-Key': 'same-key' }).expect(201);
    const res = await asB.payForm(bInvoice.id, { amount: '1' }, { 'Idempotency-Key': 'same-key' }).expect(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.body.invoice.id).toBe(bInvoice.id);
    const created = await asB.create({ customer_id: bCustomer.id }, {}, { 'Idempotency-Key': 'same-key-create' });
    expect(created.status).toBe(201);
    const aCreated = await asA.create({ customer_id: aCustomer.id }, {}, { 'Idempotency-Key': 'same-key-create' });
    expect(aCreated.status).toBe(201);
    expect(aCreated.body.invoice.id).not.toBe(created.body.invoice.id);
  });

  describe('references in a create or update', () => {
    it('A’s customer_id is a 422 naming customer_id, like an unknown one, storing nothing', async () => {
      const res = await asB.create({ customer_id: aCustomer.id, total: '1' });
      expectProblem(res, 422);
      expect(errorFields(res)).toEqual(['customer_id']);
      expect(res.body.errors[0].message).toBe(`no customer ${aCustomer.id}`);
      expect(await storedFiles(b)).toHaveLength(1);
    });

    it('A’s contact_id is a 422 naming contact_id, with B’s customer or a new nested one', async () => {
      for (const fields of [{ customer_id: bCustomer.id }, nestedCustomer()]) {
        const res = await asB.create({ ...fields, contact_id: aContact.id });
        expectProblem(res, 422);
        expect(errorFields(res)).toEqual(['contact_id']);
      }
      const patch = await asB.patchForm(bInvoice.id, { contact_id: aContact.id });
      expectProblem(patch, 422);
      expect(errorFields(patch)).toEqual(['contact_id']);
      await expectAUnchanged();
    });

    it('customer[external_id] and contact[external_id] that A uses create B’s own records and leave A’s alone', async () => {
      const invoice = await asB.createOk({
        ...nestedCustomer({ 'customer[external_id]': 'K-SHARED', 'customer[name]': 'B’s Kunde' }),
        ...nestedContact({ 'contact[external_id]': 'P-SHARED', 'contact[name]': 'B’s Kontakt' }),
      });
      expect(invoice.customer.id).not.toBe(aCustomer.id);
      expect(invoice.contact.id).not.toBe(aContact.id);
      expect(invoice.customer.name).toBe('B’s Kunde');
      // Reusing by external_id only ever reaches the own company's customer.
      const again = await asB.createOk({ 'customer[external_id]': 'k-shared', 'contact[external_id]': 'p-shared' });
      expect(again.customer.id).toBe(invoice.customer.id);
      expect(again.contact.id).toBe(invoice.contact.id);
      await expectAUnchanged();
      expect((await asA.invoice(aInvoice.id).expect(200)).body.invoice.customer.name).toBe(aCustomer.name);
    });

    it('the customer_id filter with A’s customer finds nothing for B', async () => {
      await asB.list(`?customer_id=${aCustomer.id}`).expect(200, {
        invoices: [],
        meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 0, per_page: 30, total_count: 0 },
      });
    });
  });
});
