// BGB § 288 default interest and flat fee on reminders, payments settling costs, then interest, then
// principal (§ 367), and the remainder rule (waive or pursue what is left once the original total is paid).
import { withoutRateLimits } from '../support/factories.js';
import { DunningHarness, type Json } from '../support/dunning.js';
import { pdfText } from '../support/pdf-text.js';
import { useTestApp } from '../support/use-test-app.js';

describe('dunning charges (BGB § 288) and the remainder rule', () => {
  let d: DunningHarness;

  const t = useTestApp(withoutRateLimits(), { reset: 'manual' });
  beforeAll(() => {
    d = new DunningHarness(t.app);
  });

  const lines = (reminder: Json) => reminder.lines.map((l: Json) => [l.kind, l.amount]);

  describe('business customer', () => {
    beforeEach(async () => {
      await d.reset('business');
      await d.policy({ default_interest: true, business_flat_fee: true });
    });

    // Default starts when the deadline of reminder 1 has passed (§ 286 (1) BGB), not on the day after the
    // reminder: interest runs from the day after its deadline (these figures used to start the day after it).
    it('charges nothing on reminder 1; base rate + 9 points from the day after its deadline, and the 40 EUR flat fee once, fees credited against it', async () => {
      const id = await d.sentInvoice('2026-01-10', '1000.00');
      await d.runUntil('2026-01-17', id, 'reminder1_sent');
      expect(lines((await d.invoice(id)).reminders[0])).toEqual([['fee', '0.0']]);

      const run2 = await d.runUntil('2026-01-31', id, 'reminder2_sent');
      // reminder 1 on 17.01., deadline 24.01., default from 25.01.: 7 days (25.–31.01.) × 1000 × (1.27 + 9) % / 365 = 1.969… → 1.97
      expect(run2.fees_planned).toBe('41.97');
      let invoice = await d.invoice(id);
      expect(invoice.reminders[1]).toMatchObject({ fees: '0.0', default_interest: '1.97', flat_fee: '40.0' });
      expect(invoice.reminders[1].lines).toEqual([
        { kind: 'fee', amount: '0.0' },
        { kind: 'default_interest', amount: '1.97', from: '2026-01-25', until: '2026-01-31', points_above_base_rate: '9.0' },
        { kind: 'flat_fee', amount: '40.0' },
      ]);
      expect(invoice).toMatchObject({
        original_total: '1000.0',
        reminder_fees: '0.0',
        default_interest: '1.97',
        flat_fee: '40.0',
        total: '1041.97',
        open_amount: '1041.97',
      });
      const letter = await d.api().get(`/api/v1/invoices/${id}/reminders/${invoice.reminders[1].id}/letter`).expect(200);
      const text = await pdfText(letter.body);
      expect(text).toContain('Verzugspauschale gemäß § 288 Abs. 5 BGB 40,00 €');
      expect(text).toContain('Mahnkosten 2,50 € (auf die Pauschale angerechnet) 0,00 €');
      expect(text.replace(/\n/g, ' ')).toContain(
        'Verzugszinsen gemäß § 288 Abs. 2 BGB (9 Prozentpunkte über dem Basiszinssatz von 1,27 %, also 10,27 % p. a.) ' +
          'auf 1.000,00 € vom 25.01.2026 bis 31.01.2026 (7 Tage) 1,97 €',
      );
      expect(text).toContain('Offener Betrag 1.041,97 €');

      // § 367: 540 pays the costs (40), the interest accrued up to 04.02. (11 days 25.01.–04.02. × 1000 ×
      // 10.27 % / 365 = 3.095… → 3.10, of which only 1.97 was charged), then 496.90 of the principal: 503.10 left from 05.02.
      await d.pay(id, '540.00', '2026-02-05');
      await d.runUntil('2026-02-14', id, 'reminder3_sent');
      invoice = await d.invoice(id);
      // 4 days × 1000 × 10.27 % / 365 = 1.125… → 1.13 and 10 days × 503.10 × 10.27 % / 365 = 1.415… → 1.42: 2.55;
      // no second flat fee, fee credited
      expect(invoice.reminders[2]).toMatchObject({ fees: '0.0', default_interest: '2.55', flat_fee: '0.0' });
      expect(invoice.reminders[2].lines[1]).toMatchObject({ from: '2026-02-01', until: '2026-02-14' });
      expect(invoice).toMatchObject({ default_interest: '4.52', flat_fee: '40.0', total: '1044.52', open_amount: '504.52' });
    });

    it('keeps interest and flat fee off by default', async () => {
      await d.policy({});
      const policy = (await d.api().get('/api/v1/dunning_policy').expect(200)).body.dunning_policy;
      expect(policy).toMatchObject({ default_interest: false, business_flat_fee: false, waive_remainder: true });
      const id = await d.sentInvoice('2026-01-10', '1000.00');
      await d.runUntil('2026-01-17', id, 'reminder1_sent');
      await d.runUntil('2026-01-31', id, 'reminder2_sent');
      expect(await d.invoice(id)).toMatchObject({ reminder_fees: '2.5', default_interest: '0.0', flat_fee: '0.0', total: '1002.5' });
      expect(lines((await d.invoice(id)).reminders[1])).toEqual([['fee', '2.5']]);
    });

    it('charges none of them with ignore_reminder_fees', async () => {
      const id = await d.sentInvoice('2026-01-10', '1000.00', { ignore_reminder_fees: 'true' });
      await d.runUntil('2026-01-17', id, 'reminder1_sent');
      await d.runUntil('2026-01-31', id, 'reminder2_sent');
      expect(await d.invoice(id)).toMatchObject({ reminder_fees: '0.0', default_interest: '0.0', flat_fee: '0.0', total: '1000.0' });
    });

    it('records a warning with the run when the base rate of the half-year is missing', async () => {
      const run = await d.run('2026-08-01');
      expect(run.status).toBe('succeeded');
      expect(run.errors).toEqual([expect.stringContaining('no base rate for 2026-07-01')]);
      await t.db.query(`INSERT INTO base_interest_rates (valid_from, rate) VALUES ('2026-07-01', 1.27)`);
      try {
        expect((await d.run('2026-08-02')).errors).toEqual([]);
      } finally {
        await t.db.query(`DELETE FROM base_interest_rates WHERE valid_from = '2026-07-01'`);
      }
    });
  });

  describe('consumer customer', () => {
    beforeEach(async () => {
      await d.reset('consumer');
      await d.policy({ default_interest: true, business_flat_fee: true, levels: [{}, { wait_days: 30 }, {}] });
    });

    it('charges base rate + 5 points day by day across a base-rate change, and no flat fee', async () => {
      const id = await d.sentInvoice('2025-06-01', '1000.00');
      await d.runUntil('2025-06-08', id, 'reminder1_sent');
      await d.runUntil('2025-07-08', id, 'reminder2_sent');
      const invoice = await d.invoice(id);
      // Default from the day after the deadline of reminder 1 (08.06. + 7 = 15.06., § 286 (1) BGB): 15 days
      // (16.–30.06.) at 2.27 + 5: 1000 × 7.27 × 15 / 36500 = 2.987… → 2.99, and 8 days (01.–08.07.) at 1.27 + 5:
      // 1000 × 6.27 × 8 / 36500 = 1.374… → 1.37; each half-year a line of its own: 4.36
      expect(invoice.reminders[1]).toMatchObject({ fees: '2.5', default_interest: '4.36', flat_fee: '0.0' });
      expect(invoice.reminders[1].lines[1]).toMatchObject({ from: '2025-06-16', until: '2025-07-08', points_above_base_rate: '5.0' });
      expect(invoice).toMatchObject({ reminder_fees: '2.5', default_interest: '4.36', total: '1006.86', open_amount: '1006.86' });
    });
  });

  describe('the remainder rule', () => {
    beforeEach(async () => {
      await d.reset('business');
      await d.policy({ default_interest: true, business_flat_fee: true });
    });

    async function withCharges(): Promise<string> {
      const id = await d.sentInvoice('2026-01-10', '1000.00');
      await d.runUntil('2026-01-17', id, 'reminder1_sent');
      await d.runUntil('2026-01-31', id, 'reminder2_sent');
      return id;
    }

    it('waives (default) what is left once the original total is paid, and a deleted payment revokes the waiver', async () => {
      const id = await withCharges();
      await d.pay(id, '600.00', '2026-02-02');
      const second = await d.pay(id, '400.00', '2026-02-03');
      expect(second.invoice).toMatchObject({ invoice_status: 'paid', open_amount: '0.0', waived_amount: '41.97', total: '1041.97' });
      let events = await d.events(id);
      expect(events.find((e) => e.kind === 'rest_waived')).toMatchObject({ details: { waived: '41.97', waived_amount: '41.97' } });

      const secondPayment = second.invoice.payments.find((p: Json) => p.amount === '400.0').id;
      await d.api().delete(`/api/v1/invoices/${id}/payments/${secondPayment}`).expect(204);
      const reopened = await d.invoice(id);
      expect(reopened).toMatchObject({ invoice_status: 'reminder2_sent', waived_amount: '0.0', open_amount: '441.97' });
      events = await d.events(id);
      expect(events.find((e) => e.kind === 'waiver_revoked')).toMatchObject({
        reason: 'the payments no longer reach the original total',
        details: { revoked: '41.97', waived_amount: '0.0' },
      });
      // The dunning goes on from where it stood.
      await d.runUntil('2026-02-14', id, 'reminder3_sent');
    });

    it('a later payment of the waived rest revokes the waiver instead of making a credit', async () => {
      const id = await withCharges();
      await d.pay(id, '1000.00');
      const after = await d.pay(id, '41.97');
      expect(after.invoice).toMatchObject({ invoice_status: 'paid', open_amount: '0.0', waived_amount: '0.0' });
      const events = await d.events(id);
      expect(events.find((e) => e.kind === 'waiver_revoked')).toMatchObject({ reason: 'the waived rest was paid after all' });
      expect(events.some((e) => e.kind === 'customer_credit')).toBe(false);
    });

    it('pursues the rest when the policy says so: the invoice stays open and the dunning goes on', async () => {
      await d.policy({ default_interest: true, business_flat_fee: true, waive_remainder: false });
      const id = await withCharges();
      const paid = await d.pay(id, '1000.00', '2026-02-02');
      expect(paid.invoice).toMatchObject({ invoice_status: 'reminder2_sent', open_amount: '41.97', waived_amount: '0.0' });
      expect((await d.events(id)).some((e) => e.kind === 'rest_waived')).toBe(false);
      await d.runUntil('2026-02-14', id, 'reminder3_sent');
      const invoice = await d.invoice(id);
      // § 367: the 1000 paid the costs (40) and the interest accrued up to 01.02. (8 days 25.01.–01.02. × 1000 ×
      // 10.27 % / 365 = 2.250… → 2.25) first, so 42.25 of principal bears interest from 02.02.:
      // 1 day × 1000 × 10.27 % / 365 = 0.281… → 0.28 and 13 days × 42.25 × 10.27 % / 365 = 0.154… → 0.15
      expect(invoice.reminders[2].default_interest).toBe('0.43');
      expect(invoice.open_amount).toBe('42.4');
      await d.pay(id, invoice.open_amount);
      expect(await d.statusOf(id)).toBe('paid');
    });
  });
});
