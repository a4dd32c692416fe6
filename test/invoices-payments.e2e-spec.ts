// Payments on invoices: the record format, the money fields (fees, overpayment as credit), settling and
// reopening to the stage the invoice left, refusals, concurrency and retries with Idempotency-Key.
import type { INestApplication } from '@nestjs/common';
import pg from 'pg';
import { todayIn } from '../src/common/calendar-date.js';
import { DEFAULT_POLICY } from '../src/companies/dunning-policy.js';
import { createCustomer, errorFields, expectProblem } from './support/factories.js';
import {
  type InvoiceApi,
  invoiceApi,
  invoiceRow,
  invoiceSuiteConfig,
  PAYMENT_ID,
  PAYMENT_KEYS,
  setReminderFees,
  setStatus,
  statusChanges,
  tableCounts,
  type WireEvent,
} from './support/invoice-factories.js';
import { dataSource, registerCompany, resetDatabase, startTestApp, testDatabaseUrl, type TestCompany } from './support/test-app.js';

const config = invoiceSuiteConfig('payments');

describe('invoice payments', () => {
  let app: INestApplication;
  let company: TestCompany;
  let api: InvoiceApi;
  let customerId: string;

  beforeAll(async () => {
    app = await startTestApp(config);
  });
  afterAll(async () => app.close());
  beforeEach(async () => {
    await resetDatabase(app);
    company = await registerCompany(app);
    api = invoiceApi(app, company);
    customerId = (await createCustomer(app, company)).id;
  });

  /** A sent invoice (imported with autoskip) over `total`. */
  const sentInvoice = (total = '100', fields: Record<string, string> = {}) =>
    api.createOk({ customer_id: customerId, total, 'options[autoskip_shipping]': 'true', ...fields });

  const current = async (id: string) => (await api.invoice(id).expect(200)).body.invoice;

  /** The company pursues fees left after the original total was paid (the default waives them). */
  async function pursueRests(): Promise<void> {
    await dataSource(app).query(`INSERT INTO dunning_policies (company_id, policy) VALUES ($1, $2)`, [
      company.id.slice(4),
      JSON.stringify({ ...DEFAULT_POLICY, waiveRemainder: false }),
    ]);
  }

  describe('recording', () => {
    it('takes a form body and answers 201 with the invoice, the payment in the spec’s record format', async () => {
      const invoice = await sentInvoice();
      const res = await api.payForm(invoice.id, { amount: '40,50', payment_date: '20.11.2026', external_id: 'BANK-1', note: 'Überweisung', inkasso_payment: 'true' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['invoice']);
      expect(res.body.invoice).toMatchObject({ id: invoice.id, open_amount: '59.5', total: '100.0', original_total: '100.0', invoice_status: 'sent' });
      const [payment] = res.body.invoice.payments;
      expect(Object.keys(payment).sort()).toEqual(PAYMENT_KEYS);
      expect(payment).toEqual({
        id: expect.stringMatching(PAYMENT_ID),
        external_id: 'BANK-1',
        amount: '40.5',
        payment_date: '2026-11-20',
        note: 'Überweisung',
        source: 'API',
        inkasso_payment: 'true',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(await invoiceRow(app, invoice.id)).toMatchObject({ paid_amount: '40.50', open_amount: '59.50' });
    });

    it('takes a JSON body with a number amount, and defaults the date to today, inkasso to false', async () => {
      const invoice = await sentInvoice();
      const res = await api.payJson(invoice.id, { amount: 19.5 }).expect(201);
      expect(res.body.invoice.open_amount).toBe('80.5');
      expect(res.body.invoice.payments[0]).toMatchObject({ amount: '19.5', payment_date: todayIn('Europe/Berlin'), inkasso_payment: 'false', note: null, external_id: null });
      const iso = await api.payJson(invoice.id, { amount: '0.5', payment_date: '2026-11-21', inkasso_payment: true }).expect(201);
      expect(iso.body.invoice.payments[1]).toMatchObject({ amount: '0.5', payment_date: '2026-11-21', inkasso_payment: 'true' });
      expect(iso.body.invoice.open_amount).toBe('80.0');
    });

    it.each([
      [{}, 'amount'],
      [{ amount: '0' }, 'amount'],
      [{ amount: '-5' }, 'amount'],
      [{ amount: '1,005' }, 'amount'],
      [{ amount: 'zehn' }, 'amount'],
      [{ amount: '' }, 'amount'],
      [{ amount: '10', payment_date: '31.02.2026' }, 'payment_date'],
      [{ amount: '10', payment_date: '2026/11/01' }, 'payment_date'],
      [{ amount: '10', inkasso_payment: 'vielleicht' }, 'inkasso_payment'],
    ])('refuses %j with 422 naming the field, recording nothing', async (body, field) => {
      const invoice = await sentInvoice();
      const res = await api.payForm(invoice.id, body as Record<string, string>);
      expectProblem(res, 422);
      expect(errorFields(res)).toContain(field);
      expect(await current(invoice.id)).toEqual(invoice);
    });

    it('refuses JSON amounts that are not decimals (true, an array, 1e400)', async () => {
      const invoice = await sentInvoice();
      for (const amount of [true, [10], { value: 10 }, '1e3', 0.001]) {
        const res = await api.payJson(invoice.id, { amount });
        expectProblem(res, 422);
        expect(errorFields(res)).toEqual(['amount']);
      }
      expect(await tableCounts(app)).toMatchObject({ payments: 0 });
    });

    it('refuses an impossible YYYY-MM-DD payment_date with 422', async () => {
      const invoice = await sentInvoice();
      const res = await api.payJson(invoice.id, { amount: 10, payment_date: '2026-11-31' });
      expectProblem(res, 422);
    });

    it('refuses a payment that takes the invoice’s payments beyond the largest amount (422), never a 500', async () => {
      const invoice = await sentInvoice('999999999999.99');
      await api.payForm(invoice.id, { amount: '999999999999.99' }).expect(201);
      const res = await api.payForm(invoice.id, { amount: '0.01' });
      expectProblem(res, 422);
      expect(errorFields(res)).toEqual(['amount']);
      expect((await current(invoice.id)).payments).toHaveLength(1);
      const credit = await sentInvoice('1');
      await api.payForm(credit.id, { amount: '999999999999.98' }).expect(201);
      await api.payForm(credit.id, { amount: '0.01' }).expect(201);
      expectProblem(await api.payForm(credit.id, { amount: '0.01' }), 422);
      expect(await current(credit.id)).toMatchObject({ open_amount: '-999999999998.99', invoice_status: 'paid' });
    });

    it('records a payment_recorded event with the amount', async () => {
      const invoice = await sentInvoice();
      const res = await api.payForm(invoice.id, { amount: '12.34' }).expect(201);
      const events: WireEvent[] = (await api.events(invoice.id).expect(200)).body.events;
      expect(events.at(-1)).toMatchObject({ kind: 'payment_recorded', actor: { type: 'api' }, details: { amount: '12.34', payment_id: res.body.invoice.payments[0].id } });
    });
  });

  describe('money and status', () => {
    it('settles at exactly zero and becomes paid, with a status event', async () => {
      const invoice = await sentInvoice('100');
      await api.payForm(invoice.id, { amount: '99.99' }).expect(201);
      expect((await current(invoice.id)).invoice_status).toBe('sent');
      const paid = await api.payForm(invoice.id, { amount: '0.01' }).expect(201);
      expect(paid.body.invoice).toMatchObject({ invoice_status: 'paid', open_amount: '0.0' });
      const events: WireEvent[] = (await api.events(invoice.id).expect(200)).body.events;
      expect(events.filter((e) => e.kind === 'status_changed').at(-1)).toMatchObject({ from_status: 'sent', to_status: 'paid', actor: { type: 'api' }, reason: 'payment recorded' });
    });

    it('reminder fees raise total and open amount; payments cover fees and principal; the original total alone leaves the fees open', async () => {
      await pursueRests();
      const invoice = await sentInvoice('100');
      await setStatus(app, invoice.id, 'reminder2_sent');
      await setReminderFees(app, invoice.id, '5');
      expect(await current(invoice.id)).toMatchObject({ total: '105.0', original_total: '100.0', reminder_fees: '5.0', open_amount: '105.0' });
      expect((await api.payForm(invoice.id, { amount: '3' }).expect(201)).body.invoice).toMatchObject({ open_amount: '102.0', total: '105.0' });
      const principal = await api.payForm(invoice.id, { amount: '97' }).expect(201);
      expect(principal.body.invoice).toMatchObject({ open_amount: '5.0', invoice_status: 'reminder2_sent', reminder_fees: '5.0' });
      const settled = await api.payForm(invoice.id, { amount: '5' }).expect(201);
      expect(settled.body.invoice).toMatchObject({ open_amount: '0.0', invoice_status: 'paid' });
      expect(await invoiceRow(app, invoice.id)).toMatchObject({ paid_amount: '105.00', reminder_fees: '5.00', open_amount: '0.00', waived_amount: '0.00' });
    });

    it('by default waives fees left once the original total is paid, and records the waiver', async () => {
      const invoice = await sentInvoice('100');
      await setStatus(app, invoice.id, 'reminder2_sent');
      await setReminderFees(app, invoice.id, '5');
      const res = await api.payForm(invoice.id, { amount: '100' }).expect(201);
      expect(res.body.invoice).toMatchObject({ invoice_status: 'paid', open_amount: '0.0' });
      const events: WireEvent[] = (await api.events(invoice.id).expect(200)).body.events;
      expect(events.find((e) => e.kind === 'rest_waived')).toMatchObject({ details: { waived: '5.0' } });
      expect(await invoiceRow(app, invoice.id)).toMatchObject({ waived_amount: '5.00', paid_amount: '100.00' });
    });

    it('accepts an overpayment: a negative open amount (credit), paid, never dropped', async () => {
      const invoice = await sentInvoice('100');
      const over = await api.payForm(invoice.id, { amount: '120' }).expect(201);
      expect(over.body.invoice).toMatchObject({ invoice_status: 'paid', open_amount: '-20.0', total: '100.0' });
      const more = await api.payForm(invoice.id, { amount: '10,25' }).expect(201);
      expect(more.body.invoice).toMatchObject({ invoice_status: 'paid', open_amount: '-30.25' });
      expect(await invoiceRow(app, invoice.id)).toMatchObject({ paid_amount: '130.25', open_amount: '-30.25' });
      expect(await statusChanges(api, invoice.id)).toEqual([['draft', 'sent'], ['sent', 'paid']]);
      // Removing the extra payment keeps it paid; removing the big one reopens it.
      await api.deletePayment(invoice.id, more.body.invoice.payments[1].id).expect(204);
      expect(await current(invoice.id)).toMatchObject({ invoice_status: 'paid', open_amount: '-20.0' });
      await api.deletePayment(invoice.id, over.body.invoice.payments[0].id).expect(204);
      expect(await current(invoice.id)).toMatchObject({ invoice_status: 'sent', open_amount: '100.0', payments: [] });
    });

    it.each(['draft', 'sent', 'due', 'ready_for_reminder1', 'reminder2_sent', 'ready_for_dept_collection', 'sent_to_dept_collection', 'written_off'])(
      'a payment deletion reopens a paid invoice to the stage it left: %s',
      async (stage) => {
        const invoice = await api.createOk({ customer_id: customerId, total: '80' });
        await setStatus(app, invoice.id, stage);
        const paid = await api.payForm(invoice.id, { amount: '80' }).expect(201);
        expect(paid.body.invoice.invoice_status).toBe('paid');
        await api.deletePayment(invoice.id, paid.body.invoice.payments[0].id).expect(204);
        expect(await current(invoice.id)).toMatchObject({ invoice_status: stage, open_amount: '80.0', payments: [] });
        const events: WireEvent[] = (await api.events(invoice.id).expect(200)).body.events;
        expect(events.filter((e) => e.kind === 'status_changed').map((e) => [e.from_status, e.to_status, e.reason])).toEqual([
          [stage, 'paid', 'payment recorded'],
          ['paid', stage, 'payment deleted'],
        ]);
        expect(events.at(-2)).toMatchObject({ kind: 'payment_deleted', details: { amount: '80.0' } });
      },
    );

    it('after a write-off, payments keep it written_off until fully recovered, then it is paid', async () => {
      const invoice = await sentInvoice('100');
      const written = (await api.act(invoice.id, 'write_off', { reason: 'Insolvenz' }).expect(200)).body.invoice;
      expect(written.written_off_at).not.toBeNull();
      const partial = await api.payForm(invoice.id, { amount: '40' }).expect(201);
      expect(partial.body.invoice).toMatchObject({ invoice_status: 'written_off', open_amount: '60.0', written_off_at: written.written_off_at });
      const full = await api.payForm(invoice.id, { amount: '60' }).expect(201);
      expect(full.body.invoice).toMatchObject({ invoice_status: 'paid', open_amount: '0.0' });
      await api.deletePayment(invoice.id, full.body.invoice.payments[1].id).expect(204);
      expect(await current(invoice.id)).toMatchObject({ invoice_status: 'written_off', open_amount: '60.0' });
      const recoveries = (await api.events(invoice.id).expect(200)).body.events.filter((e: WireEvent) => e.kind === 'recovery_recorded');
      expect(recoveries.map((e: WireEvent) => [e.reason, e.details])).toEqual([
        ['payment after write-off; the invoice stays written off until fully recovered', { amount: '40.0', open_amount: '60.0' }],
        ['payment after write-off: fully recovered', { amount: '60.0', open_amount: '0.0' }],
      ]);
    });

    it('a payment on a draft is booked and settles it when complete', async () => {
      const invoice = await api.createOk({ customer_id: customerId, total: '10' });
      expect((await api.payForm(invoice.id, { amount: '10' }).expect(201)).body.invoice).toMatchObject({ invoice_status: 'paid', open_amount: '0.0' });
    });
  });

  describe('refusals', () => {
    it.each(['archived', 'duplicate'])('no payment is recorded on a %s invoice (409), and none of its payments is deleted', async (status) => {
      const invoice = await sentInvoice('100');
      const payment = (await api.payForm(invoice.id, { amount: '10' }).expect(201)).body.invoice.payments[0];
      await setStatus(app, invoice.id, status);
      const before = await current(invoice.id);
      const res = await api.payForm(invoice.id, { amount: '90' });
      expectProblem(res, 409);
      expect(res.body.code).toBe('payment.not_allowed');
      expectProblem(await api.deletePayment(invoice.id, payment.id), 409);
      expect(await current(invoice.id)).toEqual(before);
    });

    it('an archived paid invoice keeps its payments', async () => {
      const invoice = await sentInvoice('100');
      const paid = (await api.payForm(invoice.id, { amount: '100' }).expect(201)).body.invoice;
      await api.act(invoice.id, 'archive').expect(200);
      expectProblem(await api.deletePayment(invoice.id, paid.payments[0].id), 409);
      expect(await current(invoice.id)).toMatchObject({ invoice_status: 'archived', payments: paid.payments });
    });

    it('a taken payment external_id (any case, any invoice of the company) is a 409 naming it and the existing payment', async () => {
      const first = await sentInvoice('100');
      const second = await sentInvoice('100');
      const payment = (await api.payForm(first.id, { amount: '10', external_id: 'BANK-7' }).expect(201)).body.invoice.payments[0];
      for (const [invoiceId, externalId] of [
        [first.id, 'BANK-7'],
        [second.id, 'bank-7'],
      ] as const) {
        const res = await api.payForm(invoiceId, { amount: '5', external_id: externalId });
        expectProblem(res, 409);
        expect(errorFields(res)).toEqual(['external_id']);
        expect(res.body).toMatchObject({ existing_id: payment.id, invoice_id: first.id });
      }
      expect(await tableCounts(app)).toMatchObject({ payments: 1 });
      expect((await current(second.id)).open_amount).toBe('100.0');
    });

    it('deleting a payment that is not one of the invoice’s is a 404', async () => {
      const invoice = await sentInvoice('100');
      const other = await sentInvoice('100');
      const payment = (await api.payForm(other.id, { amount: '10' }).expect(201)).body.invoice.payments[0];
      expectProblem(await api.deletePayment(invoice.id, payment.id), 404);
      expectProblem(await api.deletePayment(invoice.id, 'pay-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f'), 404);
      expectProblem(await api.deletePayment(invoice.id, 'nope'), 404);
      await api.deletePayment(other.id, payment.id).expect(204);
      expectProblem(await api.deletePayment(other.id, payment.id), 404);
      expectProblem(await api.payForm('inv-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f', { amount: '1' }), 404);
    });
  });

  describe('concurrency', () => {
    it('loses none of 30 concurrent payments', async () => {
      const invoice = await sentInvoice('1000');
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => api.payForm(invoice.id, { amount: '10.01', external_id: `P-${i}` })));
      expect(answers.map((res) => res.status)).toEqual(Array(30).fill(201));
      const after = await current(invoice.id);
      expect(after.payments).toHaveLength(30);
      expect(after).toMatchObject({ open_amount: '699.7', invoice_status: 'sent' });
      expect(await invoiceRow(app, invoice.id)).toMatchObject({ paid_amount: '300.30', open_amount: '699.70' });
    });

    it('settles exactly once when 30 concurrent payments cross zero', async () => {
      const invoice = await sentInvoice('100');
      const answers = await Promise.all(Array.from({ length: 30 }, () => api.payJson(invoice.id, { amount: 5 })));
      expect(answers.map((res) => res.status)).toEqual(Array(30).fill(201));
      expect(await current(invoice.id)).toMatchObject({ open_amount: '-50.0', invoice_status: 'paid' });
      expect(await statusChanges(api, invoice.id)).toEqual([['draft', 'sent'], ['sent', 'paid']]);
    });

    it('keeps the sum right when payments are recorded and deleted at the same time', async () => {
      const invoice = await sentInvoice('500');
      const first = await Promise.all(Array.from({ length: 10 }, () => api.payForm(invoice.id, { amount: '10' }).expect(201)));
      const paymentIds: string[] = (await current(invoice.id)).payments.map((p: { id: string }) => p.id);
      expect(first).toHaveLength(10);
      await Promise.all([
        ...paymentIds.map((id) => api.deletePayment(invoice.id, id).expect(204)),
        ...Array.from({ length: 10 }, () => api.payForm(invoice.id, { amount: '7' }).expect(201)),
      ]);
      expect(await current(invoice.id)).toMatchObject({ open_amount: '430.0' });
      expect(await invoiceRow(app, invoice.id)).toMatchObject({ paid_amount: '70.00' });
    });
  });

  describe('Idempotency-Key', () => {
    it('answers a retried payment with the first answer and records it once', async () => {
      const invoice = await sentInvoice('100');
      const key = { 'Idempotency-Key': 'pay-2026-11-21-1' };
      const first = await api.payForm(invoice.id, { amount: '25' }, key).expect(201);
      const retry = await api.payForm(invoice.id, { amount: '25' }, key).expect(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect(await current(invoice.id)).toMatchObject({ open_amount: '75.0', payments: [expect.anything()] });
      const other = await api.payForm(invoice.id, { amount: '26' }, key);
      expectProblem(other, 422);
      expect(await tableCounts(app)).toMatchObject({ payments: 1 });
    });

    it('records one payment when the same request arrives several times at once', async () => {
      const invoice = await sentInvoice('100');
      const answers = await Promise.all(Array.from({ length: 5 }, () => api.payJson(invoice.id, { amount: 10 }, { 'Idempotency-Key': 'parallel-pay' })));
      for (const res of answers) expect([201, 409]).toContain(res.status);
      expect(await tableCounts(app)).toMatchObject({ payments: 1 });
      expect((await current(invoice.id)).open_amount).toBe('90.0');
    });

    it('stores the answer with the payment: a request whose key a retry took over (lease run out) books nothing', async () => {
      const invoice = await sentInvoice('100');
      const key = { 'Idempotency-Key': 'slow-pay' };
      const claimOf = async () => (await dataSource(app).query(`SELECT claim_token FROM idempotency_keys WHERE key = 'slow-pay'`))[0]?.claim_token as string | undefined;
      const until = async (done: () => Promise<boolean>) => {
        const deadline = Date.now() + 15_000;
        while (!(await done())) {
          if (Date.now() > deadline) throw new Error('timed out waiting');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      // The invoice's row lock is held elsewhere: the first request claims its key, then waits.
      const holder = new pg.Client({ connectionString: testDatabaseUrl() });
      await holder.connect();
      let answers: Array<{ status: number; body: Record<string, any> }>;
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM invoices WHERE id = $1 FOR UPDATE', [invoice.id.slice(4)]);
        const first = api.payForm(invoice.id, { amount: '10' }, key).then((res) => res);
        await until(async () => (await claimOf()) !== undefined);
        const firstClaim = await claimOf();
        // Its lease runs out (as if its process had died): the retry takes the key over, then waits too.
        await dataSource(app).query(`UPDATE idempotency_keys SET claimed_at = now() - interval '3 minutes' WHERE key = 'slow-pay'`);
        const retry = api.payForm(invoice.id, { amount: '10' }, key).then((res) => res);
        await until(async () => (await claimOf()) !== firstClaim);
        await holder.query('ROLLBACK');
        answers = await Promise.all([first, retry]);
      } finally {
        await holder.end();
      }
      expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
      expect(answers.find((res) => res.status === 409)?.body.code).toBe('idempotency.in_progress');
      expect(await tableCounts(app)).toMatchObject({ payments: 1 });
      const replay = await api.payForm(invoice.id, { amount: '10' }, key).expect(201);
      expect(replay.body).toEqual(answers.find((res) => res.status === 201)?.body);
      expect((await current(invoice.id)).open_amount).toBe('90.0');
    });

    it('the same key on another invoice is another request (422), not a replay of the first', async () => {
      const a = await sentInvoice('100');
      const b = await sentInvoice('100');
      await api.payForm(a.id, { amount: '10' }, { 'Idempotency-Key': 'k-1' }).expect(201);
      expectProblem(await api.payForm(b.id, { amount: '10' }, { 'Idempotency-Key': 'k-1' }), 422);
      expect((await current(b.id)).payments).toEqual([]);
    });
  });
});
