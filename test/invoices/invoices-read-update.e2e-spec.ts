// Reading invoices (get, find by external_id, the paginated list with its filters) and PATCH: what may
// still change in each status, recomputed money fields and dates, and external_id conflicts.
import { createContact, createCustomer, errorFields, expectProblem, type Json } from '../support/factories.js';
import {
  type InvoiceApi,
  invoiceApi,
  invoiceRow,
  invoiceSuiteConfig,
  setReminderFees,
  setStatus,
  type WireEvent,
} from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';

const config = invoiceSuiteConfig('read-update');
const UNKNOWN_INVOICE = 'inv-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

describe('invoice reads and updates', () => {
  let api: InvoiceApi;
  let customer: Json;

  const t = useTestApp(config, { company: true });
  beforeEach(async () => {
    api = invoiceApi(t.app, t.company);
    customer = await createCustomer(t.app, t.company);
  });

  /** Creates invoices with invoice numbers N-1…N-n and distinct creation times, oldest first. */
  async function createMany(n: number, fields: Record<string, string> = {}): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 1; i <= n; i++) {
      const invoice = await api.createOk({ customer_id: customer.id, invoice_number: `N-${i}`, total: String(i), ...fields });
      await t.db.query(`UPDATE invoices SET created_at = $2 WHERE id = $1`, [
        invoice.id.slice(4),
        new Date(Date.UTC(2026, 0, i)).toISOString(),
      ]);
      ids.push(invoice.id);
    }
    return ids;
  }

  const ids = (res: { body: { invoices: Array<{ id: string }> } }) => res.body.invoices.map((i) => i.id);

  describe('get and find', () => {
    it('reads an invoice by its id, also with the uuid in capitals', async () => {
      const invoice = await api.createOk({ customer_id: customer.id, external_id: 'RE-1', total: '10' });
      await api.invoice(invoice.id).expect(200, { invoice });
      await api.invoice(`inv-${invoice.id.slice(4).toUpperCase()}`).expect(200, { invoice });
    });

    it.each([UNKNOWN_INVOICE, 'inv-nope', 'cus-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f', '6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f'])(
      'answers %s with a 404 problem',
      async (id) => {
        expectProblem(await api.invoice(id), 404);
      },
    );

    it('finds by external_id in any case, with slashes and spaces, and answers 404 when nothing matches', async () => {
      const invoice = await api.createOk({ customer_id: customer.id, external_id: 'RE/2026 Ärger-1', total: '10' });
      for (const asked of ['RE/2026 Ärger-1', 're/2026 ärger-1', 'RE/2026 ÄRGER-1']) {
        await api.find(asked).expect(200, { invoice });
      }
      expectProblem(await api.find('RE/2026'), 404);
      expectProblem(await api.find('RE%'), 404);
    });
  });

  describe('list', () => {
    it('answers an empty list with the full meta object', async () => {
      await api.list().expect(200, {
        invoices: [],
        meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 0, per_page: 30, total_count: 0 },
      });
    });

    it('pages like the customer list, oldest first, each item the full Invoice object', async () => {
      const all = await createMany(5);
      const first = await api.list('?per_page=2').expect(200);
      expect(ids(first)).toEqual(all.slice(0, 2));
      expect(first.body.meta).toEqual({ current_page: 1, next_page: 2, prev_page: null, total_pages: 3, per_page: 2, total_count: 5 });
      const last = await api.list('?per_page=2&page=3').expect(200);
      expect(ids(last)).toEqual(all.slice(4));
      expect(last.body.meta).toEqual({ current_page: 3, next_page: null, prev_page: 2, total_pages: 3, per_page: 2, total_count: 5 });
      const beyond = await api.list('?per_page=2&page=9').expect(200);
      expect(beyond.body).toEqual({
        invoices: [],
        meta: { current_page: 9, next_page: null, prev_page: 8, total_pages: 3, per_page: 2, total_count: 5 },
      });
      const single = await api.invoice(all[3]).expect(200);
      expect((await api.list().expect(200)).body.invoices[3]).toEqual(single.body.invoice);
    });

    it('shows 30 per page by default and 100 at most', async () => {
      const [id] = await createMany(1);
      // 40 more rows copied from the first (SQL: creating them through the API adds nothing to this test).
      await t.db.query(
        `INSERT INTO invoices SELECT (jsonb_populate_record(NULL::invoices, to_jsonb(i) || jsonb_build_object('id', gen_random_uuid(), 'created_at', i.created_at + g * interval '1 minute'))).*
         FROM invoices i, generate_series(1, 40) g WHERE i.id = $1`,
        [id.slice(4)],
      );
      const first = await api.list().expect(200);
      expect(first.body.invoices).toHaveLength(30);
      expect(first.body.meta).toEqual({ current_page: 1, next_page: 2, prev_page: null, total_pages: 2, per_page: 30, total_count: 41 });
      expect(first.body.invoices[0].id).toBe(id);
      const all = await api.list('?per_page=100').expect(200);
      expect(all.body.invoices).toHaveLength(41);
      expect(new Set(ids(all)).size).toBe(41);
    });

    it.each([
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=1&page=2', 'page'],
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
    ])('refuses %s with a 400 problem naming the parameter', async (query, field) => {
      const res = await api.list(`?${query}`);
      expectProblem(res, 400);
      expect(errorFields(res)).toEqual([field]);
    });

    it('filters by status, customer_id and updated_since, alone and combined, counting only matches', async () => {
      const other = await createCustomer(t.app, t.company);
      const [a, b] = await createMany(2);
      const sent = await api.createOk({
        customer_id: customer.id,
        invoice_number: 'S-1',
        total: '5',
        'options[autoskip_shipping]': 'true',
      });
      const foreign = await api.createOk({
        customer_id: other.id,
        invoice_number: 'O-1',
        total: '5',
        'options[autoskip_shipping]': 'true',
      });
      await t.db.query(`UPDATE invoices SET updated_at = '2026-01-01T00:00:00Z'`);
      await t.db.query(`UPDATE invoices SET updated_at = '2026-06-01T12:00:00Z' WHERE id = ANY($1)`, [[b.slice(4), foreign.id.slice(4)]]);

      const byStatus = await api.list('?status=sent').expect(200);
      expect(ids(byStatus).sort()).toEqual([sent.id, foreign.id].sort());
      expect(byStatus.body.meta.total_count).toBe(2);
      expect(ids(await api.list('?status=draft').expect(200))).toEqual([a, b]);
      expect(ids(await api.list('?status=paid').expect(200))).toEqual([]);

      expect(ids(await api.list(`?customer_id=${other.id}`).expect(200))).toEqual([foreign.id]);
      expect((await api.list(`?customer_id=${customer.id}`).expect(200)).body.meta.total_count).toBe(3);
      expect(ids(await api.list('?customer_id=cus-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f').expect(200))).toEqual([]);

      const since = await api.list(`?updated_since=${encodeURIComponent('2026-06-01T13:00:00+01:00')}`).expect(200);
      expect(ids(since).sort()).toEqual([b, foreign.id].sort());
      expect(ids(await api.list('?updated_since=2026-06-01T12:00:01Z').expect(200))).toEqual([]);
      expect((await api.list('?updated_since=2026-05-31').expect(200)).body.meta.total_count).toBe(2);

      const combined = await api.list(`?status=draft&customer_id=${customer.id}&updated_since=2026-05-01&per_page=1`).expect(200);
      expect(ids(combined)).toEqual([b]);
      expect(combined.body.meta).toMatchObject({ total_count: 1, total_pages: 1 });
    });

    it('lists an invoice again once it changed after updated_since (incremental sync)', async () => {
      const [id] = await createMany(1);
      const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
      await pause();
      const mark = new Date().toISOString();
      expect(ids(await api.list(`?updated_since=${mark}`).expect(200))).toEqual([]);
      await pause();
      await api.patchForm(id, { additional_number: 'PO-1' }).expect(200);
      expect(ids(await api.list(`?updated_since=${mark}`).expect(200))).toEqual([id]);
    });

    it.each([
      ['status=bogus', 'status'],
      ['status=SENT', 'status'],
      ['status=sent&status=draft', 'status'],
      ['customer_id=K-1', 'customer_id'],
      ['updated_since=gestern', 'updated_since'],
      ['updated_since=2026-13-01', 'updated_since'],
      ['updated_since=2026-02-31', 'updated_since'],
      ['updated_since=1', 'updated_since'],
      ['updated_since=12', 'updated_since'],
      ['updated_since=21.11.2026', 'updated_since'],
      ['updated_since=2026-11-21T10:00:00', 'updated_since'],
      ['updated_since=', 'updated_since'],
    ])('refuses the filter %s with a 400 problem naming it', async (query, field) => {
      const res = await api.list(`?${query}`);
      expectProblem(res, 400);
      expect(errorFields(res)).toEqual([field]);
    });

    it('reads a datetime whose + arrived as a space (an unencoded query)', async () => {
      const [id] = await createMany(1);
      await t.db.query(`UPDATE invoices SET updated_at = '2026-06-01T12:00:00Z'`);
      expect(ids(await api.list('?updated_since=2026-06-01T13:00:00+01:00').expect(200))).toEqual([id]);
      expect(ids(await api.list('?updated_since=2026-06-01T13:00:01+01:00').expect(200))).toEqual([]);
    });
  });

  describe('PATCH a draft', () => {
    it('changes every field, recomputes the money fields and dates, and records an update event', async () => {
      const contact = await createContact(t.app, t.company, customer.id);
      const invoice = await api.createOk({
        customer_id: customer.id,
        external_id: 'RE-1',
        invoice_number: '1',
        total: '100',
        invoice_date: '01.11.2026',
      });
      const res = await api
        .patchForm(invoice.id, {
          external_id: 'RE-1a',
          invoice_number: '2026-002',
          additional_number: 'PO-9',
          total: '200,50',
          net: '168,49',
          vat7: '0',
          vat19: '32.01',
          order_date: '15.10.2026',
          invoice_date: '2026-11-03',
          due_date: '03.12.2026',
          shipping_mode: 'post',
          ignore_reminder_fees: 'true',
          contact_id: contact.id,
        })
        .expect(200);
      expect(res.body.invoice).toEqual({
        ...invoice,
        external_id: 'RE-1a',
        invoice_number: '2026-002',
        additional_number: 'PO-9',
        total: '200.5',
        original_total: '200.5',
        open_amount: '200.5',
        order_date: '2026-10-15',
        invoice_date: '2026-11-03',
        due_date: '2026-12-03',
        time_for_payment: 30,
        shipping_mode: 'post',
        ignore_reminder_fees: true,
        contact: expect.objectContaining({ id: contact.id }),
        updated_at: expect.any(String),
      });
      expect(new Date(res.body.invoice.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(invoice.updated_at).getTime());
      expect(await invoiceRow(t.app, invoice.id)).toMatchObject({ net: '168.49', vat7: '0.00', vat19: '32.01' });
      await api.invoice(invoice.id).expect(200, res.body);
      const events: WireEvent[] = (await api.events(invoice.id).expect(200)).body.events;
      expect(events.at(-1)).toMatchObject({
        kind: 'updated',
        actor: { type: 'api' },
        details: { fields: expect.arrayContaining(['total', 'external_id', 'due_date']) },
      });
    });

    it('takes a JSON body with JSON types (119.5 as a number)', async () => {
      const invoice = await api.createOk({ customer_id: customer.id, total: '1', invoice_date: '01.11.2026' });
      const res = await api
        .patchJson(invoice.id, { total: 119.5, time_for_payment: 30, ignore_reminder_fees: true, invoice_number: 'J-1' })
        .expect(200);
      expect(res.body.invoice).toMatchObject({
        total: '119.5',
        open_amount: '119.5',
        due_date: '2026-12-01',
        time_for_payment: 30,
        ignore_reminder_fees: true,
        invoice_number: 'J-1',
      });
    });

    it('keeps the other date fixed and derives the third: invoice_date, time_for_payment, due_date', async () => {
      const invoice = await api.createOk({ customer_id: customer.id, invoice_date: '01.11.2026', due_date: '15.11.2026' });
      expect((await api.patchForm(invoice.id, { invoice_date: '05.11.2026' }).expect(200)).body.invoice).toMatchObject({
        invoice_date: '2026-11-05',
        due_date: '2026-11-15',
        time_for_payment: 10,
      });
      expect((await api.patchForm(invoice.id, { time_for_payment: '20' }).expect(200)).body.invoice).toMatchObject({
        invoice_date: '2026-11-05',
        due_date: '2026-11-25',
        time_for_payment: 20,
      });
      expect((await api.patchForm(invoice.id, { due_date: '2026-12-05' }).expect(200)).body.invoice).toMatchObject({
        invoice_date: '2026-11-05',
        due_date: '2026-12-05',
        time_for_payment: 30,
      });
    });

    it.each([
      [{ due_date: '31.10.2026' }, 'due_date'],
      [{ invoice_date: '16.11.2026' }, 'due_date'],
      [{ invoice_date: '01.11.2026', due_date: '15.11.2026', time_for_payment: '7' }, 'time_for_payment'],
      [{ invoice_date: '31.02.2026' }, 'invoice_date'],
      [{ total: '-1' }, 'total'],
      [{ total: '1,005' }, 'total'],
      [{ net: 'viel' }, 'net'],
      [{ shipping_mode: 'fax' }, 'shipping_mode'],
      [{ contact_id: 'con-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f' }, 'contact_id'],
    ])('refuses %j with 422 naming the field and changes nothing', async (body, field) => {
      const invoice = await api.createOk({ customer_id: customer.id, total: '10', invoice_date: '01.11.2026', due_date: '15.11.2026' });
      const res = await api.patchForm(invoice.id, body);
      expectProblem(res, 422);
      expect(errorFields(res)).toContain(field);
      await api.invoice(invoice.id).expect(200, { invoice });
    });

    it('refuses a contact of another customer (422) and clears the contact with an empty value', async () => {
      const contact = await createContact(t.app, t.company, customer.id);
      const stranger = await createContact(t.app, t.company, (await createCustomer(t.app, t.company)).id);
      const invoice = await api.createOk({ customer_id: customer.id, contact_id: contact.id });
      const res = await api.patchForm(invoice.id, { contact_id: stranger.id });
      expectProblem(res, 422);
      expect(errorFields(res)).toEqual(['contact_id']);
      const cleared = await api.patchForm(invoice.id, { contact_id: '', external_id: '', invoice_number: '' }).expect(200);
      expect(cleared.body.invoice).toMatchObject({ contact: null, external_id: null, invoice_number: null });
    });

    it('recomputes open_amount from the new total, the fees and the payments so far', async () => {
      const invoice = await api.createOk({ customer_id: customer.id, total: '100' });
      await api.payForm(invoice.id, { amount: '30' }).expect(201);
      await setReminderFees(t.app, invoice.id, '5');
      const res = await api.patchForm(invoice.id, { total: '150' }).expect(200);
      expect(res.body.invoice).toMatchObject({
        invoice_status: 'draft',
        total: '155.0',
        original_total: '150.0',
        reminder_fees: '5.0',
        open_amount: '125.0',
      });
      expect(await invoiceRow(t.app, invoice.id)).toMatchObject({ paid_amount: '30.00', open_amount: '125.00' });
    });

    it('settles a draft whose new total is covered by its payments (open ≤ 0 is paid)', async () => {
      const invoice = await api.createOk({ customer_id: customer.id, total: '100' });
      await api.payForm(invoice.id, { amount: '40' }).expect(201);
      const res = await api.patchForm(invoice.id, { total: '40' }).expect(200);
      expect(res.body.invoice).toMatchObject({ invoice_status: 'paid', open_amount: '0.0' });
    });

    it.each([
      ['customer_id', { customer_id: 'cus-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f' }],
      ['customer', { 'customer[name]': 'Andere AG' }],
      ['contact', { 'contact[name]': 'Max' }],
      ['options', { 'options[autosend]': 'true' }],
      ['invoice_status', { invoice_status: 'paid' }],
      ['open_amount', { open_amount: '0' }],
      ['written_off_at', { written_off_at: '2026-11-01' }],
    ])('refuses %s, which PATCH cannot change, with 422 naming it (not silently ignored), and changes nothing', async (field, body) => {
      const invoice = await api.createOk({ customer_id: customer.id, total: '10' });
      const res = await api.patchForm(invoice.id, { ...body, invoice_number: 'nicht gespeichert' });
      expectProblem(res, 422);
      expect(errorFields(res)).toEqual([field]);
      expect(res.body.errors[0].message).toContain('cannot change');
      await api.invoice(invoice.id).expect(200, { invoice });
    });

    it('refuses several at once, in JSON too; keys that are no invoice field are ignored, as on every resource', async () => {
      const invoice = await api.createOk({ customer_id: customer.id, total: '10' });
      const res = await api.patchJson(invoice.id, { customer_id: null, reminder_fees: 5, payments: [] });
      expectProblem(res, 422);
      expect(errorFields(res).sort()).toEqual(['customer_id', 'payments', 'reminder_fees']);
      const ignored = await api.patchJson(invoice.id, { colour: 'blau', invoice_number: 'R-7' }).expect(200);
      expect(ignored.body.invoice.invoice_number).toBe('R-7');
    });

    it('an empty PATCH changes nothing', async () => {
      const invoice = await api.createOk({ customer_id: customer.id, total: '10' });
      await api.patchForm(invoice.id, {}).expect(200, { invoice });
      expect((await api.events(invoice.id).expect(200)).body.events.map((e: WireEvent) => e.kind)).toEqual(['created']);
    });
  });

  describe('PATCH after the draft', () => {
    async function inStatus(status: string): Promise<Json> {
      const invoice = await api.createOk({ customer_id: customer.id, total: '100', invoice_date: '01.11.2026', due_date: '15.11.2026' });
      await setStatus(t.app, invoice.id, status);
      return (await api.invoice(invoice.id).expect(200)).body.invoice;
    }

    it.each(['sent', 'due'])('%s: the payment term may be extended, by due_date or time_for_payment', async (status) => {
      const invoice = await inStatus(status);
      expect((await api.patchForm(invoice.id, { due_date: '30.11.2026' }).expect(200)).body.invoice).toMatchObject({
        due_date: '2026-11-30',
        time_for_payment: 29,
        invoice_status: status,
      });
      expect((await api.patchJson(invoice.id, { time_for_payment: 45 }).expect(200)).body.invoice).toMatchObject({
        due_date: '2026-12-16',
        time_for_payment: 45,
      });
    });

    it('sent: total is refused with 409 naming it and the fields that may change; nothing changes', async () => {
      const invoice = await inStatus('sent');
      const res = await api.patchForm(invoice.id, { total: '90', additional_number: 'PO-1' });
      expectProblem(res, 409);
      expect(errorFields(res)).toEqual(['total']);
      expect(res.body).toMatchObject({
        current_status: 'sent',
        editable_fields: expect.arrayContaining(['due_date', 'external_id', 'additional_number']),
      });
      expect(res.body.editable_fields).not.toContain('total');
      await api.invoice(invoice.id).expect(200, { invoice });
    });

    it('sent: names every refused field at once', async () => {
      const invoice = await inStatus('sent');
      const res = await api.patchJson(invoice.id, {
        total: 90,
        invoice_date: '2026-11-02',
        net: 1,
        order_date: '2026-10-01',
        additional_number: 'ok',
      });
      expectProblem(res, 409);
      expect(errorFields(res).sort()).toEqual(['invoice_date', 'net', 'order_date', 'total']);
    });

    it('sent: numbers, contact, shipping mode and the fee flag may still change', async () => {
      const invoice = await inStatus('sent');
      const contact = await createContact(t.app, t.company, customer.id);
      const res = await api
        .patchForm(invoice.id, {
          external_id: 'X-1',
          additional_number: 'A-1',
          invoice_number: 'N-1',
          contact_id: contact.id,
          shipping_mode: 'email',
          ignore_reminder_fees: 'true',
        })
        .expect(200);
      expect(res.body.invoice).toMatchObject({
        external_id: 'X-1',
        additional_number: 'A-1',
        invoice_number: 'N-1',
        shipping_mode: 'email',
        ignore_reminder_fees: true,
        total: '100.0',
      });
    });

    it.each(['ready_for_reminder1', 'reminder1_sent', 'sent_to_dept_collection'])(
      '%s: the due date is fixed once dunning started (409)',
      async (status) => {
        const invoice = await inStatus(status);
        const res = await api.patchForm(invoice.id, { due_date: '30.11.2026' });
        expectProblem(res, 409);
        expect(errorFields(res)).toEqual(['due_date']);
        await api.patchForm(invoice.id, { invoice_number: 'N-2' }).expect(200);
      },
    );

    it.each(['paid', 'archived', 'duplicate', 'written_off'])('%s: only external_id and additional_number may change', async (status) => {
      const invoice = await inStatus(status);
      const ok = await api.patchForm(invoice.id, { external_id: 'ERP-9', additional_number: 'AB-9' }).expect(200);
      expect(ok.body.invoice).toMatchObject({ external_id: 'ERP-9', additional_number: 'AB-9', invoice_status: status });
      for (const [field, value] of [
        ['invoice_number', 'N-9'],
        ['due_date', '30.11.2026'],
        ['total', '1'],
        ['contact_id', ''],
        ['shipping_mode', 'post'],
      ]) {
        const res = await api.patchForm(invoice.id, { [field]: value });
        expectProblem(res, 409);
        expect(errorFields(res)).toEqual([field]);
      }
      await api.invoice(invoice.id).expect(200, ok.body);
    });
  });

  describe('PATCH the terms of an invoice imported without an invoice date', () => {
    async function withoutInvoiceDate(status = 'sent'): Promise<Json> {
      const invoice = await api.createOk({ customer_id: customer.id, total: '100', invoice_date: '01.11.2026', due_date: '15.11.2026' });
      await t.db.query('UPDATE invoices SET invoice_date = NULL, time_for_payment = NULL, status = $2 WHERE id = $1', [
        invoice.id.slice(4),
        status,
      ]);
      return (await api.invoice(invoice.id).expect(200)).body.invoice;
    }

    it('a new due_date is set as given; no invoice_date is invented', async () => {
      const invoice = await withoutInvoiceDate();
      const res = await api.patchForm(invoice.id, { due_date: '30.11.2026' }).expect(200);
      expect(res.body.invoice).toMatchObject({ invoice_date: null, due_date: '2026-11-30', time_for_payment: null });
      expect(await invoiceRow(t.app, invoice.id)).toMatchObject({ invoice_date: null });
    });

    it('time_for_payment alone has no date to count from: 422 naming it, nothing changes', async () => {
      const invoice = await withoutInvoiceDate();
      const res = await api.patchForm(invoice.id, { time_for_payment: '30' });
      expectProblem(res, 422);
      expect(errorFields(res)).toEqual(['time_for_payment']);
      await api.invoice(invoice.id).expect(200, { invoice });
    });

    it('due_date with time_for_payment derives the invoice_date', async () => {
      const invoice = await withoutInvoiceDate('draft');
      const res = await api.patchForm(invoice.id, { due_date: '30.11.2026', time_for_payment: '14' }).expect(200);
      expect(res.body.invoice).toMatchObject({ invoice_date: '2026-11-16', due_date: '2026-11-30', time_for_payment: 14 });
    });
  });

  describe('PATCH external_id', () => {
    it('refuses one another invoice holds, in any case, with 409 naming it and the holder; its own in another case is fine', async () => {
      const holder = await api.createOk({ customer_id: customer.id, external_id: 'RE-1' });
      const invoice = await api.createOk({ customer_id: customer.id, external_id: 'RE-2' });
      for (const taken of ['RE-1', 're-1']) {
        const res = await api.patchForm(invoice.id, { external_id: taken });
        expectProblem(res, 409);
        expect(errorFields(res)).toEqual(['external_id']);
        expect(res.body.existing_id).toBe(holder.id);
      }
      await setStatus(t.app, invoice.id, 'paid');
      expectProblem(await api.patchForm(invoice.id, { external_id: 'Re-1' }), 409);
      expect((await api.patchForm(invoice.id, { external_id: 're-2' }).expect(200)).body.invoice.external_id).toBe('re-2');
    });

    it('answers a PATCH of an unknown invoice with 404', async () => {
      expectProblem(await api.patchForm(UNKNOWN_INVOICE, { additional_number: 'x' }), 404);
    });
  });
});
