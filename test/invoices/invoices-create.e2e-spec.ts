// Create invoice (spec: "Create invoice: parameters (multipart)"): the answer's exact wire format,
// dates and their derivation, amounts, the options and retries with Idempotency-Key.
import pg from 'pg';
import request from 'supertest';
import { todayIn, addDays } from '../../src/common/calendar-date.js';
import { createContact, createCustomer, DATETIME, errorFields, expectProblem, type Json, offsetIn } from '../support/factories.js';
import {
  CONTACT_REFERENCE_KEYS,
  CUSTOMER_REFERENCE_KEYS,
  type Fields,
  INVOICE_ID,
  expectInvoiceKeys,
  type InvoiceApi,
  invoiceApi,
  invoiceRow,
  invoiceSuiteConfig,
  nestedContact,
  nestedCustomer,
  PAYMENT_KEYS,
  REMINDER_EXTENSION_KEYS,
  REMINDER_KEYS,
  setCompanySettings,
  setReminderFees,
  statusChanges,
  storedFiles,
  tableCounts,
} from '../support/invoice-factories.js';
import { makePdf } from '../support/pdf.js';
import { PUBLIC_URL, testDatabaseUrl, afterCredentialCache } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

const config = invoiceSuiteConfig('create');

describe('invoice create', () => {
  let api: InvoiceApi;
  let customer: Json;

  const t = useTestApp(config, { company: true });
  beforeEach(async () => {
    api = invoiceApi(t.app, t.company);
    customer = await createCustomer(t.app, t.company, { external_id: 'K-1', customer_number: 'KN-1', address_line2: 'Einkauf' });
  });

  /** A 422 that names the field and stores nothing: no invoice row, no document. */
  async function expectRefused(fields: Fields, field: string): Promise<void> {
    const before = await tableCounts(t.app);
    const res = await api.create({ customer_id: customer.id, ...fields });
    expectProblem(res, 422);
    expect(errorFields(res)).toContain(field);
    expect(await tableCounts(t.app)).toEqual(before);
    expect(await storedFiles(t.company)).toEqual([]);
  }

  describe('the answer', () => {
    it('is what a read of the invoice answers afterwards, with a referenced and with a nested customer', async () => {
      const contact = await createContact(t.app, t.company, customer.id, { external_id: 'P-2', email: 'p2@kunde.de' });
      const referenced = await api.create({
        customer_id: customer.id,
        contact_id: contact.id,
        external_id: 'R-1',
        total: '119.00',
        net: '100.00',
        vat19: '19.00',
      });
      const nested = await api.create({
        ...nestedCustomer({ 'customer[external_id]': 'K-NEW' }),
        ...nestedContact(),
        external_id: 'R-2',
        total: '50',
      });
      for (const created of [referenced, nested]) {
        expect(created.status).toBe(201);
        const read = await api.invoice(created.body.invoice.id).expect(200);
        expect(read.body).toEqual(created.body);
      }
    });

    it('has exactly the fields of the spec’s Invoice table, each in its wire format', async () => {
      const contact = await createContact(t.app, t.company, customer.id, {
        external_id: 'P-1',
        email: 'erika@kunde.de',
        gender: '2',
        salutation: '1',
      });
      const before = Date.now();
      const res = await api.create(
        {
          customer_id: customer.id,
          contact_id: contact.id,
          external_id: 'RE-2026-001',
          invoice_number: '2026-001',
          additional_number: 'PO-77',
          total: '119,00',
          net: '100.00',
          vat19: '19.00',
          order_date: '01.11.2026',
          invoice_date: '02.11.2026',
          due_date: '16.11.2026',
        },
        { invoice_attachment: await makePdf('Anlage') },
      );
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body)).toEqual(['invoice']);
      const invoice = res.body.invoice;
      expectInvoiceKeys(invoice);
      const {
        dunning_block: _block,
        default_interest: _interest,
        accrued_interest: _accrued,
        default_since: _defaultSince,
        flat_fee: _flat,
        waived_amount: _waived,
        pdf_active_content: _active,
        ...specFields
      } = invoice;
      expect(specFields).toEqual({
        id: expect.stringMatching(INVOICE_ID),
        external_id: 'RE-2026-001',
        invoice_status: 'draft',
        invoice_number: '2026-001',
        service_url: `${PUBLIC_URL}/invoices/${invoice.id}`,
        invoice_attachment: `${PUBLIC_URL}/api/v1/invoices/${invoice.id}/attachment`,
        additional_number: 'PO-77',
        total: '119.0',
        original_total: '119.0',
        reminder_fees: '0.0',
        open_amount: '119.0',
        order_date: '2026-11-01',
        invoice_date: '2026-11-02',
        due_date: '2026-11-16',
        time_for_payment: 14,
        source: 'API',
        shipping_mode: null,
        written_off_at: null,
        ignore_reminder_fees: false,
        created_at: expect.stringMatching(DATETIME),
        updated_at: expect.stringMatching(DATETIME),
        customer: expect.any(Object),
        contact: expect.any(Object),
        payments: [],
        reminders: [],
      });
      const created = new Date(invoice.created_at);
      expect(invoice.created_at.slice(-6)).toBe(offsetIn('Europe/Berlin', created));
      expect(created.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(created.getTime()).toBeLessThanOrEqual(Date.now());

      // The customer and contact reduced to the spec's fields, with the values their own resources show.
      expect(Object.keys(invoice.customer).sort()).toEqual(CUSTOMER_REFERENCE_KEYS);
      expect(invoice.customer).toEqual({
        id: customer.id,
        external_id: 'K-1',
        name: customer.name,
        customer_number: 'KN-1',
        address: customer.address,
        created_at: customer.created_at,
        updated_at: customer.updated_at,
      });
      expect(invoice.customer.address.split('\n')[1]).toBe('Einkauf');
      expect(Object.keys(invoice.contact).sort()).toEqual(CONTACT_REFERENCE_KEYS);
      expect(invoice.contact).toEqual({
        id: contact.id,
        external_id: 'P-1',
        name: contact.name,
        gender: 2,
        salutation: 1,
        email: 'erika@kunde.de',
        created_at: contact.created_at,
        updated_at: contact.updated_at,
      });

      // Reading it back answers the same object.
      await api.invoice(invoice.id).expect(200, { invoice });
    });

    it('has null for what was not sent: attachment, contact, numbers, order date', async () => {
      const invoice = await api.createOk({ customer_id: customer.id });
      expect(invoice).toMatchObject({
        external_id: null,
        invoice_number: null,
        additional_number: null,
        invoice_attachment: null,
        contact: null,
        order_date: null,
        total: '0.0',
        original_total: '0.0',
        open_amount: '0.0',
        shipping_mode: null,
        written_off_at: null,
      });
    });

    it('shows payments and reminders in the spec’s record formats, and total = original_total + reminder_fees', async () => {
      const invoice = await api.createOk({ customer_id: customer.id, total: '100', 'options[autoskip_shipping]': 'true' });
      // Reminders come from the dunning engine; one is written directly to see its wire format.
      await t.db.query(
        `INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, last_sent_at, shipping_mode, fees)
         SELECT company_id, gen_random_uuid(), id, 2, '2026-12-01', '2026-12-01T09:30:00Z', 'post', 2.5 FROM invoices WHERE id = $1`,
        [invoice.id.slice(4)],
      );
      await setReminderFees(t.app, invoice.id, '2.50');
      await api
        .payForm(invoice.id, {
          amount: '10',
          payment_date: '03.12.2026',
          external_id: 'BANK-1',
          note: 'Teilzahlung',
          inkasso_payment: 'true',
        })
        .expect(201);
      const res = await api.invoice(invoice.id).expect(200);
      const body = res.body.invoice;
      expect(body).toMatchObject({ total: '102.5', original_total: '100.0', reminder_fees: '2.5', open_amount: '92.5' });
      expect(body.reminders).toHaveLength(1);
      expect(
        Object.keys(body.reminders[0])
          .filter((key) => !REMINDER_EXTENSION_KEYS.includes(key))
          .sort(),
      ).toEqual(REMINDER_KEYS);
      expect(body.reminders[0]).toEqual({
        id: expect.stringMatching(/^rem-[0-9a-f-]{36}$/),
        reminder_stage: 2,
        reminder_date: '2026-12-01',
        last_sent_at: '2026-12-01T10:30:00+01:00',
        shipping_mode: 'post',
        fees: '2.5',
        default_interest: '0.0',
        flat_fee: '0.0',
        lines: [{ kind: 'fee', amount: '2.5' }],
      });
      expect(body.payments).toHaveLength(1);
      expect(Object.keys(body.payments[0]).sort()).toEqual(PAYMENT_KEYS);
      expect(body.payments[0]).toEqual({
        id: expect.stringMatching(/^pay-[0-9a-f-]{36}$/),
        external_id: 'BANK-1',
        amount: '10.0',
        payment_date: '2026-12-03',
        note: 'Teilzahlung',
        source: 'API',
        inkasso_payment: 'true',
        created_at: expect.stringMatching(DATETIME),
        updated_at: expect.stringMatching(DATETIME),
      });
    });

    it('follows the company’s time zone in its datetimes', async () => {
      await t.db.query(`UPDATE companies SET time_zone = 'America/New_York' WHERE id = $1`, [t.company.id.slice(4)]);
      afterCredentialCache(t.app);
      const invoice = await api.createOk({ customer_id: customer.id, total: '5', 'options[autoskip_shipping]': 'true' });
      expect(invoice.created_at.slice(-6)).toBe(offsetIn('America/New_York', new Date(invoice.created_at)));
      const written = await api.act(invoice.id, 'write_off').expect(200);
      expect(written.body.invoice.written_off_at).toMatch(DATETIME);
      expect(written.body.invoice.written_off_at.slice(-6)).toBe(
        offsetIn('America/New_York', new Date(written.body.invoice.written_off_at)),
      );
    });
  });

  describe('amounts', () => {
    it.each([
      ['119,50', '119.5'],
      ['119.5', '119.5'],
      ['119.50', '119.5'],
      ['119', '119.0'],
      ['0,01', '0.01'],
      ['99.99', '99.99'],
      [' 12.30 ', '12.3'],
      ['1000000', '1000000.0'],
    ])('reads total %j as %s', async (sent, shown) => {
      const invoice = await api.createOk({ customer_id: customer.id, total: sent });
      expect(invoice).toMatchObject({ total: shown, original_total: shown, open_amount: shown, reminder_fees: '0.0' });
      expect((await invoiceRow(t.app, invoice.id)).original_total).toBe(Number(sent.trim().replace(',', '.')).toFixed(2));
    });

    it.each(['total', 'net', 'vat7', 'vat19'])(
      'refuses a negative, non-numeric or over-precise %s with 422 naming it, storing nothing',
      async (field) => {
        for (const value of ['-1', '-0,01', 'abc', '1.005', '1,234.50', '1e3', '12 EUR', '0x10']) {
          await expectRefused({ [field]: value }, field);
        }
      },
    );

    it('keeps net, vat7 and vat19 as sent (not part of the answer)', async () => {
      const invoice = await api.createOk({ customer_id: customer.id, total: '126,00', net: '100', vat7: '7,00', vat19: '19.0' });
      for (const key of ['net', 'vat7', 'vat19']) expect(invoice).not.toHaveProperty(key);
      expect(await invoiceRow(t.app, invoice.id)).toMatchObject({ net: '100.00', vat7: '7.00', vat19: '19.00', original_total: '126.00' });
      const without = await api.createOk({ customer_id: customer.id, total: '1' });
      expect(await invoiceRow(t.app, without.id)).toMatchObject({ net: null, vat7: null, vat19: null });
    });
  });

  describe('dates', () => {
    it('reads DD.MM.YYYY and YYYY-MM-DD and answers YYYY-MM-DD', async () => {
      const german = await api.createOk({
        customer_id: customer.id,
        order_date: '28.02.2028',
        invoice_date: '29.02.2028',
        due_date: '14.03.2028',
      });
      expect(german).toMatchObject({ order_date: '2028-02-28', invoice_date: '2028-02-29', due_date: '2028-03-14', time_for_payment: 14 });
      const iso = await api.createOk({
        customer_id: customer.id,
        order_date: '2026-10-31',
        invoice_date: '2026-11-02',
        due_date: '2026-12-02',
      });
      expect(iso).toMatchObject({ order_date: '2026-10-31', invoice_date: '2026-11-02', due_date: '2026-12-02', time_for_payment: 30 });
      const mixed = await api.createOk({ customer_id: customer.id, invoice_date: '2026-12-15', due_date: '14.01.2027' });
      expect(mixed).toMatchObject({ invoice_date: '2026-12-15', due_date: '2027-01-14', time_for_payment: 30 });
    });

    it.each([
      [
        'invoice_date and time_for_payment → due_date',
        { invoice_date: '15.12.2026', time_for_payment: '30' },
        { invoice_date: '2026-12-15', due_date: '2027-01-14', time_for_payment: 30 },
      ],
      [
        'invoice_date and due_date → time_for_payment',
        { invoice_date: '01.02.2028', due_date: '01.03.2028' },
        { invoice_date: '2028-02-01', due_date: '2028-03-01', time_for_payment: 29 },
      ],
      [
        'all three when they agree',
        { invoice_date: '01.11.2026', due_date: '08.11.2026', time_for_payment: '7' },
        { invoice_date: '2026-11-01', due_date: '2026-11-08', time_for_payment: 7 },
      ],
      [
        'time_for_payment 0: due on the invoice date',
        { invoice_date: '01.11.2026', time_for_payment: '0' },
        { invoice_date: '2026-11-01', due_date: '2026-11-01', time_for_payment: 0 },
      ],
      [
        'invoice_date alone: 14 days',
        { invoice_date: '20.12.2026' },
        { invoice_date: '2026-12-20', due_date: '2027-01-03', time_for_payment: 14 },
      ],
      [
        'due_date and time_for_payment → invoice_date',
        { due_date: '15.12.2026', time_for_payment: '14' },
        { invoice_date: '2026-12-01', due_date: '2026-12-15', time_for_payment: 14 },
      ],
    ])('derives %s', async (_name, fields, expected) => {
      expect(await api.createOk({ customer_id: customer.id, ...fields })).toMatchObject(expected);
    });

    it('takes today (in the company’s time zone) as invoice date when none is sent', async () => {
      const today = todayIn('Europe/Berlin');
      expect(await api.createOk({ customer_id: customer.id })).toMatchObject({
        invoice_date: today,
        due_date: addDays(today, 14),
        time_for_payment: 14,
      });
      expect(await api.createOk({ customer_id: customer.id, time_for_payment: '10' })).toMatchObject({
        invoice_date: today,
        due_date: addDays(today, 10),
        time_for_payment: 10,
      });
      const due = addDays(today, 21);
      expect(await api.createOk({ customer_id: customer.id, due_date: due })).toMatchObject({
        invoice_date: today,
        due_date: due,
        time_for_payment: 21,
      });
    });

    it.each([
      ['a due date before the invoice date', { invoice_date: '10.11.2026', due_date: '09.11.2026' }, 'due_date'],
      [
        'a time_for_payment that contradicts the dates',
        { invoice_date: '01.11.2026', due_date: '15.11.2026', time_for_payment: '10' },
        'time_for_payment',
      ],
      ['31.02.2026', { invoice_date: '31.02.2026' }, 'invoice_date'],
      ['29.02.2026 (no leap year)', { due_date: '29.02.2026' }, 'due_date'],
      ['a one-digit day', { invoice_date: '1.11.2026' }, 'invoice_date'],
      ['a US date', { invoice_date: '11/01/2026' }, 'invoice_date'],
      ['a datetime', { due_date: '2026-11-01T00:00:00Z' }, 'due_date'],
      ['month 13', { order_date: '01.13.2026' }, 'order_date'],
      ['a negative time_for_payment', { time_for_payment: '-1' }, 'time_for_payment'],
      ['a fractional time_for_payment', { time_for_payment: '1.5' }, 'time_for_payment'],
      ['a text time_for_payment', { time_for_payment: 'zwei Wochen' }, 'time_for_payment'],
    ])('refuses %s with 422 naming the field', async (_name, fields, field) => {
      await expectRefused(fields, field);
    });

    it('refuses an impossible YYYY-MM-DD date (2026-11-31, 2026-02-29) with 422 naming the field', async () => {
      await expectRefused({ order_date: '2026-11-31' }, 'order_date');
      await expectRefused({ invoice_date: '2026-02-29' }, 'invoice_date');
      await expectRefused({ due_date: '2026-04-31' }, 'due_date');
    });
  });

  describe('options', () => {
    it('options[autoskip_shipping]=true imports the invoice as sent with shipping mode skip_shipping', async () => {
      const invoice = await api.createOk({ customer_id: customer.id, total: '50', 'options[autoskip_shipping]': 'true' });
      expect(invoice).toMatchObject({ invoice_status: 'sent', shipping_mode: 'skip_shipping' });
      const events = (await api.events(invoice.id).expect(200)).body.events;
      expect(events.map((e: { kind: string }) => e.kind)).toEqual(['created', 'status_changed']);
      expect(events[1]).toMatchObject({
        from_status: 'draft',
        to_status: 'sent',
        actor: { type: 'api' },
        reason: expect.stringContaining('autoskip_shipping'),
      });
    });

    it('options[autosend]=true hands the invoice to shipping: sent at once when nothing is to deliver, else once delivered', async () => {
      const skipped = await api.createOk({
        customer_id: customer.id,
        total: '50',
        shipping_mode: 'skip_shipping',
        'options[autosend]': 'true',
      });
      expect(skipped).toMatchObject({ invoice_status: 'sent', shipping_mode: 'skip_shipping' });
      expect(await statusChanges(api, skipped.id)).toEqual([['draft', 'sent']]);
      // By post (DESIGN.md: "it becomes sent once shipping succeeded"): still a draft when the answer comes.
      const posted = await api.createOk({ customer_id: customer.id, total: '50', shipping_mode: 'post', 'options[autosend]': 'true' });
      expect(posted).toMatchObject({ invoice_status: 'draft', shipping_mode: 'post' });
      expect(await statusChanges(api, posted.id)).toEqual([]);
    });

    it('neither option keeps the invoice a draft (default company settings), and false is not true', async () => {
      expect((await api.createOk({ customer_id: customer.id, total: '50' })).invoice_status).toBe('draft');
      const off = await api.createOk({
        customer_id: customer.id,
        total: '50',
        'options[autoskip_shipping]': 'false',
        'options[autosend]': '0',
      });
      expect(off.invoice_status).toBe('draft');
      expect(await statusChanges(api, off.id)).toEqual([]);
    });

    it('the company setting applies without options, and options override it', async () => {
      await setCompanySettings(t.app, t.company, { autoskipShipping: true });
      expect(await api.createOk({ customer_id: customer.id, total: '50' })).toMatchObject({
        invoice_status: 'sent',
        shipping_mode: 'skip_shipping',
      });
      expect(await api.createOk({ customer_id: customer.id, total: '50', 'options[autoskip_shipping]': 'false' })).toMatchObject({
        invoice_status: 'draft',
      });
    });

    it('refuses to import or send an invoice without a positive total (422 naming total), storing nothing', async () => {
      for (const option of ['options[autoskip_shipping]', 'options[autosend]']) {
        await expectRefused({ [option]: 'true' }, 'total');
        await expectRefused({ [option]: 'true', total: '0,00' }, 'total');
      }
    });

    it('refuses an option that is no boolean, naming it', async () => {
      await expectRefused({ total: '5', 'options[autosend]': 'vielleicht' }, 'options[autosend]');
      await expectRefused({ total: '5', 'options[autoskip_shipping]': '2' }, 'options[autoskip_shipping]');
    });

    it('release of a draft with total 0 is a 422 naming total; with a total it is sent', async () => {
      const invoice = await api.createOk({ customer_id: customer.id, shipping_mode: 'skip_shipping' });
      const refused = await api.act(invoice.id, 'release');
      expectProblem(refused, 422);
      expect(errorFields(refused)).toEqual(['total']);
      expect((await api.invoice(invoice.id).expect(200)).body.invoice.invoice_status).toBe('draft');
      expect(await statusChanges(api, invoice.id)).toEqual([]);
      await api.patchForm(invoice.id, { total: '10' }).expect(200);
      expect((await api.act(invoice.id, 'release').expect(200)).body.invoice.invoice_status).toBe('sent');
    });
  });

  describe('other request shapes', () => {
    it.each([
      ['JSON', (req: request.Test) => req.type('json').send({ customer_id: 'x', total: 10 })],
      ['urlencoded', (req: request.Test) => req.type('form').send({ customer_id: 'x', total: '10' })],
      ['no body', (req: request.Test) => req],
    ])('answers a %s body (creation is multipart) with 415 naming the invoice file', async (_kind, send) => {
      const res = await send(t.http.post('/api/v1/invoices').set('Authorization', t.company.auth));
      expectProblem(res, 415);
      expect(res.body.code).toBe('request.unsupported_media_type');
      expect(errorFields(res)).toEqual(['invoice']);
      expect(await tableCounts(t.app)).toMatchObject({ invoices: 0 });
    });

    it('answers a multipart body without the invoice file with 422 naming it', async () => {
      const missing = await api.create({ customer_id: customer.id }, { invoice: null });
      expectProblem(missing, 422);
      expect(errorFields(missing)).toEqual(['invoice']);
      expect(await tableCounts(t.app)).toMatchObject({ invoices: 0 });
    });

    it('refuses a second invoice file and unknown file fields without storing anything', async () => {
      const pdf = await makePdf('X');
      const twice = await t.http
        .post('/api/v1/invoices')
        .set('Authorization', t.company.auth)
        .field('customer_id', customer.id)
        .attach('invoice', pdf, 'a.pdf')
        .attach('invoice', pdf, 'b.pdf');
      expectProblem(twice, 422);
      expect(errorFields(twice)).toEqual(['invoice']);
      const unknown = await t.http
        .post('/api/v1/invoices')
        .set('Authorization', t.company.auth)
        .field('customer_id', customer.id)
        .attach('invoice', pdf, 'a.pdf')
        .attach('logo', pdf, 'logo.pdf');
      expectProblem(unknown, 422);
      expect(errorFields(unknown)).toEqual(['logo']);
      expect(await tableCounts(t.app)).toMatchObject({ invoices: 0 });
      expect(await storedFiles(t.company)).toEqual([]);
    });
  });

  describe('Idempotency-Key', () => {
    const key = { 'Idempotency-Key': 'create-RE-1' };

    it('answers a retry with the first answer: one invoice, one set of files', async () => {
      const fields = { customer_id: customer.id, external_id: 'RE-1', total: '10' };
      const first = await api.create(fields, {}, key);
      expect(first.status).toBe(201);
      const retry = await api.create(fields, {}, key);
      expect(retry.status).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect(await tableCounts(t.app)).toMatchObject({ invoices: 1 });
      expect(await storedFiles(t.company)).toEqual([`invoices/${first.body.invoice.id.slice(4)}/invoice.pdf`]);
    });

    it('refuses the same key with other fields (422) and stores nothing for it', async () => {
      expect((await api.create({ customer_id: customer.id, total: '10' }, {}, key)).status).toBe(201);
      const other = await api.create({ customer_id: customer.id, total: '11' }, {}, key);
      expectProblem(other, 422);
      expect(await tableCounts(t.app)).toMatchObject({ invoices: 1 });
    });

    it('frees the key when the create failed: the corrected retry creates the invoice', async () => {
      const failed = await api.create({ customer_id: 'cus-00000000-0000-4000-8000-000000000000', total: '10' }, {}, key);
      expectProblem(failed, 422);
      const ok = await api.create({ customer_id: customer.id, total: '10' }, {}, key);
      expect(ok.status).toBe(201);
      expect(ok.headers['idempotent-replayed']).toBeUndefined();
    });

    it('creates one invoice when the same request arrives several times at once', async () => {
      const fields = { customer_id: customer.id, external_id: 'RE-PAR', total: '10' };
      const answers = await Promise.all(Array.from({ length: 5 }, () => api.create(fields, {}, { 'Idempotency-Key': 'parallel' })));
      for (const res of answers) expect([201, 409]).toContain(res.status);
      expect(answers.filter((res) => res.status === 201).length).toBeGreaterThanOrEqual(1);
      expect(new Set(answers.filter((res) => res.status === 201).map((res) => res.body.invoice.id)).size).toBe(1);
      expect(await tableCounts(t.app)).toMatchObject({ invoices: 1 });
      expect(await storedFiles(t.company)).toHaveLength(1);
    });

    it('stores the answer in the create’s transaction: a request whose key a retry took over (lease run out) creates nothing', async () => {
      const fields = { ...nestedCustomer({ 'customer[external_id]': 'K-SLOW' }), total: '10' };
      const slowKey = { 'Idempotency-Key': 'slow-create' };
      const claimOf = async () =>
        (await t.db.query(`SELECT claim_token FROM idempotency_keys WHERE key = 'slow-create'`))[0]?.claim_token as string | undefined;
      const until = async (done: () => Promise<boolean>) => {
        const deadline = Date.now() + 15_000;
        while (!(await done())) {
          if (Date.now() > deadline) throw new Error('timed out waiting');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      // The nested customer's external_id lock is held elsewhere: the first request claims its key, then waits.
      const holder = new pg.Client({ connectionString: testDatabaseUrl() });
      await holder.connect();
      const lock = [`customer:${t.company.id.slice(4)}:`, 'K-SLOW'];
      let answers: Array<{ status: number; body: Json }>;
      try {
        await holder.query('SELECT pg_advisory_lock(hashtextextended($1 || lower($2), 0))', lock);
        const first = api.create(fields, {}, slowKey).then((res) => res);
        await until(async () => (await claimOf()) !== undefined);
        const firstClaim = await claimOf();
        await t.db.query(`UPDATE idempotency_keys SET claimed_at = now() - interval '3 minutes' WHERE key = 'slow-create'`);
        const retry = api.create(fields, {}, slowKey).then((res) => res);
        await until(async () => (await claimOf()) !== firstClaim);
        await holder.query('SELECT pg_advisory_unlock(hashtextextended($1 || lower($2), 0))', lock);
        answers = await Promise.all([first, retry]);
      } finally {
        await holder.end();
      }
      expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
      expect(answers.find((res) => res.status === 409)?.body.code).toBe('idempotency.in_progress');
      const created = answers.find((res) => res.status === 201)!.body.invoice;
      expect(await tableCounts(t.app)).toMatchObject({ invoices: 1, customers: 2 });
      expect(await storedFiles(t.company)).toEqual([`invoices/${created.id.slice(4)}/invoice.pdf`]);
      const replay = await api.create(fields, {}, slowKey);
      expect({ status: replay.status, invoice: replay.body.invoice }).toEqual({ status: 201, invoice: created });
    });
  });
});
