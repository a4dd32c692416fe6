import { OPEN_STATUSES } from '../../src/invoices/invoice-status.js';
import request from 'supertest';
import { makePdf } from '../support/pdf.js';
import { registerCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

const customerFields = {
  name: 'Muster GmbH',
  address_line1: 'Muster GmbH',
  address_line3: 'Musterstraße 1',
  zip: '10115',
  city: 'Berlin',
  country_code: 'DE',
};

describe('invoices', () => {
  let pdf: Buffer;
  let customerId: string;

  const t = useTestApp({}, { company: true });
  beforeAll(async () => {
    pdf = await makePdf('Rechnung 2026-001');
  });
  beforeEach(async () => {
    const res = await t.http
      .post('/api/v1/customers')
      .set('Authorization', t.company.auth)
      .type('form')
      .send({ ...customerFields, external_id: 'K-1' })
      .expect(201);
    customerId = res.body.id;
  });

  const http = () => t.http;
  const create = (fields: Record<string, string>, file: Buffer | null = pdf) => {
    const req = http().post('/api/v1/invoices').set('Authorization', t.company.auth);
    for (const [key, value] of Object.entries(fields)) req.field(key, value);
    if (file) req.attach('invoice', file, { filename: 'rechnung.pdf', contentType: 'application/pdf' });
    return req;
  };

  it('creates an invoice from a PDF and the spec parameters and answers the full invoice', async () => {
    const res = await create({
      customer_id: customerId,
      external_id: 'RE-1',
      invoice_number: '2026-001',
      additional_number: 'AB-7',
      total: '119,00',
      net: '100.00',
      vat19: '19.00',
      order_date: '01.11.2026',
      invoice_date: '02.11.2026',
      due_date: '16.11.2026',
    }).expect(201);
    const invoice = res.body.invoice;
    expect(invoice).toMatchObject({
      external_id: 'RE-1',
      invoice_status: 'draft',
      invoice_number: '2026-001',
      additional_number: 'AB-7',
      total: '119.0',
      original_total: '119.0',
      reminder_fees: '0.0',
      open_amount: '119.0',
      order_date: '2026-11-01',
      invoice_date: '2026-11-02',
      due_date: '2026-11-16',
      time_for_payment: 14,
      source: 'API',
      written_off_at: null,
      ignore_reminder_fees: false,
      invoice_attachment: null,
      payments: [],
      reminders: [],
      contact: null,
    });
    expect(invoice.id).toMatch(/^inv-[0-9a-f-]{36}$/);
    expect(invoice.service_url).toBe(`https://receivables.test/invoices/${invoice.id}`);
    expect(invoice.customer).toEqual(expect.objectContaining({ id: customerId, external_id: 'K-1', name: 'Muster GmbH' }));
    expect(Object.keys(invoice.customer).sort()).toEqual([
      'address',
      'created_at',
      'customer_number',
      'external_id',
      'id',
      'name',
      'updated_at',
    ]);
    const download = await http().get(`/api/v1/invoices/${invoice.id}/pdf`).set('Authorization', t.company.auth).expect(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(download.body, pdf)).toBe(0);
  });

  it('creates customer and contact with the invoice (extended create) and reuses them by external_id', async () => {
    const fields = {
      'customer[name]': 'Neu AG',
      'customer[address_line1]': 'Neu AG',
      'customer[address_line3]': 'Allee 2',
      'customer[zip]': '20095',
      'customer[city]': 'Hamburg',
      'customer[country_code]': 'DE',
      'customer[external_id]': 'K-NEU',
      'contact[name]': 'Erika Muster',
      'contact[gender]': '2',
      'contact[salutation]': '0',
      'contact[email]': 'erika@neu.de',
      'contact[external_id]': 'P-1',
      total: '50',
    };
    const first = await create(fields).expect(201);
    expect(first.body.invoice.customer.name).toBe('Neu AG');
    expect(first.body.invoice.contact).toMatchObject({ name: 'Erika Muster', gender: 2, salutation: 0, email: 'erika@neu.de' });
    const second = await create({ ...fields, 'customer[name]': 'Neu AG & Co. KG' }).expect(201);
    expect(second.body.invoice.customer.id).toBe(first.body.invoice.customer.id);
    expect(second.body.invoice.customer.name).toBe('Neu AG & Co. KG');
    expect(second.body.invoice.contact.id).toBe(first.body.invoice.contact.id);
  });

  it('stores nothing when the extended create fails, neither customer nor file', async () => {
    const before = await t.db.query('SELECT (SELECT count(*) FROM customers) AS c, (SELECT count(*) FROM invoices) AS i');
    const res = await create({
      'customer[name]': 'Orphan GmbH',
      'customer[address_line1]': 'Orphan GmbH',
      'customer[address_line3]': 'Weg 3',
      'customer[zip]': '80331',
      'customer[city]': 'München',
      'customer[country_code]': 'DE',
      'contact[name]': 'Ohne Anrede',
      total: '10',
    }).expect(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['contact[gender]', 'contact[salutation]']);
    const after = await t.db.query('SELECT (SELECT count(*) FROM customers) AS c, (SELECT count(*) FROM invoices) AS i');
    expect(after).toEqual(before);
  });

  it('refuses a file that is not a PDF with 415 and a missing file with 422', async () => {
    const notPdf = await create({ customer_id: customerId }, Buffer.from('just text, not a pdf')).expect(415);
    expect(notPdf.body.errors[0].field).toBe('invoice');
    const missing = await create({ customer_id: customerId }, null).expect(422);
    expect(missing.body.errors[0].field).toBe('invoice');
    expect(Number((await t.db.query('SELECT count(*) FROM invoices'))[0].count)).toBe(0);
  });

  it('names invalid dates, amounts and references', async () => {
    const res = await create({ customer_id: customerId, invoice_date: '31.02.2026', total: '-5', contact_id: 'con-nope' }).expect(422);
    const fields = res.body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['invoice_date', 'total']);
    const due = await create({ customer_id: customerId, invoice_date: '10.11.2026', due_date: '01.11.2026' }).expect(422);
    expect(due.body.errors[0].field).toBe('due_date');
  });

  it('records payments fees-first, becomes paid at zero and reopens to the stage it left', async () => {
    const created = await create({ customer_id: customerId, total: '100', 'options[autoskip_shipping]': 'true' }).expect(201);
    const id = created.body.invoice.id;
    expect(created.body.invoice.invoice_status).toBe('sent');
    expect(created.body.invoice.shipping_mode).toBe('skip_shipping');
    const partial = await http()
      .post(`/api/v1/invoices/${id}/payments`)
      .set('Authorization', t.company.auth)
      .type('form')
      .send({ amount: '40,50', payment_date: '20.11.2026' })
      .expect(201);
    expect(partial.body.invoice).toMatchObject({ open_amount: '59.5', invoice_status: 'sent' });
    const full = await http()
      .post(`/api/v1/invoices/${id}/payments`)
      .set('Authorization', t.company.auth)
      .send({ amount: 59.5 })
      .expect(201);
    expect(full.body.invoice).toMatchObject({ open_amount: '0.0', invoice_status: 'paid' });
    const payment = full.body.invoice.payments[1];
    expect(payment).toMatchObject({ amount: '59.5', inkasso_payment: 'false', source: 'API' });
    await http().delete(`/api/v1/invoices/${id}/payments/${payment.id}`).set('Authorization', t.company.auth).expect(204);
    const reopened = await http().get(`/api/v1/invoices/${id}`).set('Authorization', t.company.auth).expect(200);
    expect(reopened.body.invoice).toMatchObject({ open_amount: '59.5', invoice_status: 'sent' });
    const events = await http().get(`/api/v1/invoices/${id}/events`).set('Authorization', t.company.auth).expect(200);
    expect(
      events.body.events.filter((e: { kind: string }) => e.kind === 'status_changed').map((e: { to_status: string }) => e.to_status),
    ).toEqual(['sent', 'paid', 'sent']);
  });

  it('never loses one of many concurrent payments', async () => {
    const created = await create({ customer_id: customerId, total: '1000', 'options[autoskip_shipping]': 'true' }).expect(201);
    const id = created.body.invoice.id;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        http().post(`/api/v1/invoices/${id}/payments`).set('Authorization', t.company.auth).send({ amount: '10.05' }).expect(201),
      ),
    );
    const res = await http().get(`/api/v1/invoices/${id}`).set('Authorization', t.company.auth).expect(200);
    expect(res.body.invoice.open_amount).toBe('799.0');
    expect(res.body.invoice.payments).toHaveLength(20);
  });

  it('moves through the manual actions of the transition table and refuses the others with 409', async () => {
    // skip_shipping: release makes it sent at once (shipping itself is test/shipping/shipping.e2e-spec.ts).
    const created = await create({ customer_id: customerId, total: '100', shipping_mode: 'skip_shipping' }).expect(201);
    const id = created.body.invoice.id;
    const act = (action: string) => http().post(`/api/v1/invoices/${id}/${action}`).set('Authorization', t.company.auth);
    const refused = await act('write_off').expect(409);
    expect(refused.body).toMatchObject({
      code: 'invoice.transition_not_allowed',
      detail: `An invoice in status draft cannot be written off; allowed from: ${OPEN_STATUSES.join(', ')}`,
    });
    expect((await act('release').expect(200)).body.invoice.invoice_status).toBe('sent');
    const written = await act('write_off').send({ reason: 'insolvent' }).expect(200);
    expect(written.body.invoice.invoice_status).toBe('written_off');
    expect(written.body.invoice.written_off_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect((await act('archive').expect(200)).body.invoice.invoice_status).toBe('archived');
    await act('mark_duplicate').expect(409);
  });

  it('refuses changes that the status no longer allows', async () => {
    const created = await create({ customer_id: customerId, total: '100', 'options[autoskip_shipping]': 'true' }).expect(201);
    const id = created.body.invoice.id;
    const refused = await http().patch(`/api/v1/invoices/${id}`).set('Authorization', t.company.auth).send({ total: '90' }).expect(409);
    expect(refused.body.errors[0].field).toBe('total');
    const ok = await http()
      .patch(`/api/v1/invoices/${id}`)
      .set('Authorization', t.company.auth)
      .send({ additional_number: 'PO-9', due_date: '2030-01-31' })
      .expect(200);
    expect(ok.body.invoice).toMatchObject({ additional_number: 'PO-9', due_date: '2030-01-31' });
  });

  it('lists with filters and finds by external_id case-insensitively', async () => {
    await create({ customer_id: customerId, external_id: 'RE-A', total: '1' }).expect(201);
    await create({ customer_id: customerId, external_id: 'RE-B', total: '2', 'options[autoskip_shipping]': 'true' }).expect(201);
    const sent = await http().get('/api/v1/invoices?status=sent').set('Authorization', t.company.auth).expect(200);
    expect(sent.body.invoices.map((i: { external_id: string }) => i.external_id)).toEqual(['RE-B']);
    expect(sent.body.meta).toMatchObject({ total_count: 1, current_page: 1, per_page: 30 });
    await http().get('/api/v1/invoices?status=bogus').set('Authorization', t.company.auth).expect(400);
    const found = await http().get('/api/v1/invoices/find/re-a').set('Authorization', t.company.auth).expect(200);
    expect(found.body.invoice.external_id).toBe('RE-A');
  });

  it('keeps every invoice endpoint closed to another company', async () => {
    const created = await create({ customer_id: customerId, external_id: 'RE-X', total: '100' }).expect(201);
    const id = created.body.invoice.id;
    const other = await registerCompany(t.app);
    const as = (req: request.Test) => req.set('Authorization', other.auth);
    await as(http().get(`/api/v1/invoices/${id}`)).expect(404);
    await as(http().get('/api/v1/invoices/find/RE-X')).expect(404);
    await as(http().patch(`/api/v1/invoices/${id}`).send({ additional_number: 'x' })).expect(404);
    await as(http().get(`/api/v1/invoices/${id}/pdf`)).expect(404);
    await as(http().get(`/api/v1/invoices/${id}/events`)).expect(404);
    await as(http().post(`/api/v1/invoices/${id}/payments`).send({ amount: '1' })).expect(404);
    await as(http().post(`/api/v1/invoices/${id}/release`)).expect(404);
    const list = await as(http().get('/api/v1/invoices')).expect(200);
    expect(list.body.meta.total_count).toBe(0);
    const foreignCustomer = await as(
      http().post('/api/v1/invoices').field('customer_id', customerId).attach('invoice', pdf, 'r.pdf'),
    ).expect(422);
    expect(foreignCustomer.body.errors[0].field).toBe('customer_id');
  });
});

describe('invoice create retries (Idempotency-Key)', () => {
  const t = useTestApp({}, { reset: 'manual', company: true });

  it('replays the first answer for the same files and body, and refuses other files under the same key', async () => {
    await t.reset();
    const post = (file: Buffer) =>
      t.http
        .post('/api/v1/invoices')
        .set('Authorization', t.company.auth)
        .set('Idempotency-Key', 'upload-1')
        .field('customer[name]', 'Retry GmbH')
        .field('customer[address_line1]', 'Retry GmbH')
        .field('customer[address_line3]', 'Weg 1')
        .field('customer[zip]', '10115')
        .field('customer[city]', 'Berlin')
        .field('customer[country_code]', 'DE')
        .field('total', '10')
        .attach('invoice', file, 'r.pdf');
    const pdf = await makePdf('A');
    const first = await post(pdf).expect(201);
    const retry = await post(pdf).expect(201);
    expect(retry.body.invoice.id).toBe(first.body.invoice.id);
    await post(await makePdf('B')).expect(422);
    expect(Number((await t.db.query('SELECT count(*) FROM invoices'))[0].count)).toBe(1);
    expect(Number((await t.db.query('SELECT count(*) FROM customers'))[0].count)).toBe(1);
  });
});
