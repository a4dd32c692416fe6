// The worked examples of the README section "Dunning law: default, interest and § 367", each computed by
// hand: when default starts (BGB § 286), interest day by day at each day's base rate (§§ 247, 288),
// corrected by a back-dated payment (§ 367), and recorded up to the hand-over to debt collection.
// Every interest line is principal × (base rate + points) × days / 36500, rounded to cents.
import { addDays, todayIn } from '../../src/common/calendar-date.js';
import { Decimal, formatDecimal } from '../../src/common/money.js';
import { InterestLines } from '../../src/invoices/interest/interest-lines.repository.js';
import { withoutRateLimits } from '../support/factories.js';
import { DunningHarness, type Json } from '../support/dunning.js';
import { useTestApp } from '../support/use-test-app.js';

describe('default interest (BGB §§ 286, 288, 367): the worked examples', () => {
  let d: DunningHarness;
  const t = useTestApp(withoutRateLimits(), { reset: 'manual' });

  beforeAll(() => {
    d = new DunningHarness(t.app);
  });
  // The rate of 1 July 2026 (unchanged at 1.27 %), so runs in the second half of 2026 warn of nothing.
  beforeEach(() => t.db.query(`INSERT INTO base_interest_rates (valid_from, rate) VALUES ('2026-07-01', 1.27) ON CONFLICT DO NOTHING`));
  afterEach(() => t.db.query(`DELETE FROM base_interest_rates WHERE valid_from = '2026-07-01'`));

  const uuid = (id: string) => id.slice(id.indexOf('-') + 1);
  const lines = async (id: string) =>
    (await t.app.get(InterestLines).forInvoice(undefined, uuid(d.company.id), uuid(id))).map((l) => [
      l.kind,
      l.from,
      l.until,
      l.days,
      l.principal,
      l.baseRate,
      l.points,
      l.amount,
    ]);

  /** The 1,190.00 EUR invoice due 15.09.2026, reminder 1 on 22.09. (deadline 29.09.), reminder 2 on 06.10. */
  async function example(): Promise<string> {
    const id = await d.sentInvoice('2026-09-15', '1190.00');
    await d.runUntil('2026-09-22', id, 'reminder1_sent');
    await d.runUntil('2026-10-06', id, 'reminder2_sent');
    return id;
  }

  describe('a business customer', () => {
    beforeEach(async () => {
      await d.reset('business');
      await d.policy({ default_interest: true, business_flat_fee: true });
    });

    it('is in default from the day after the deadline of reminder 1, not from the reminder (§ 286 (1))', async () => {
      const id = await example();
      // Reminder 1 on 22.09. with 7 days to pay: deadline 29.09., default from 30.09.
      // Reminder 2 on 06.10.: 7 days (30.09.–06.10.) × 1190 × (1.27 + 9) % / 365 = 2.343… → 2.34, and the flat fee.
      const invoice = await d.invoice(id);
      expect(invoice).toMatchObject({ default_since: '2026-09-30', default_interest: '2.34', flat_fee: '40.0', open_amount: '1232.34' });
      expect(invoice.reminders[1]).toMatchObject({ default_interest: '2.34' });
      expect(await lines(id)).toEqual([['interest', '2026-09-30', '2026-10-06', 7, '1190.00', '1.27', 9, '2.34']]);
    });

    it('under thirty_days_business: the earlier of that deadline and 30 days after the due date (§ 286 (3))', async () => {
      await d.policy({ default_interest: true, business_flat_fee: true, default_starts: 'thirty_days_business' });
      const policy = (await d.api().get('/api/v1/dunning_policy').expect(200)).body.dunning_policy;
      expect(policy.default_starts).toBe('thirty_days_business');
      // The same dates: 30.09. (after the deadline) is earlier than 16.10. (31 days after 15.09.).
      const same = await example();
      expect(await d.invoice(same)).toMatchObject({ default_since: '2026-09-30', default_interest: '2.34' });

      // Reminder 1 only 30 days after the due date (15.10., deadline 22.10.): the 30 days end first,
      // default from 16.10.; reminder 2 on 29.10.: 14 days (16.–29.10.) × 1190 × 10.27 % / 365 = 4.687… → 4.69.
      await d.policy({ default_interest: true, default_starts: 'thirty_days_business', levels: [{ wait_days: 30 }, {}, {}] });
      const late = await d.sentInvoice('2026-09-15', '1190.00');
      await d.runUntil('2026-10-15', late, 'reminder1_sent');
      await d.runUntil('2026-10-29', late, 'reminder2_sent');
      expect(await d.invoice(late)).toMatchObject({ default_since: '2026-10-16', default_interest: '4.69' });

      // By the reminder alone (the default policy) the same invoice is in default from 23.10. only:
      // 7 days (23.–29.10.) × 1190 × 10.27 % / 365 = 2.343… → 2.34.
      await d.policy({ default_interest: true, levels: [{ wait_days: 30 }, {}, {}] });
      const byReminder = await d.sentInvoice('2026-09-15', '1190.00');
      await d.runUntil('2026-10-15', byReminder, 'reminder1_sent');
      await d.runUntil('2026-10-29', byReminder, 'reminder2_sent');
      expect(await d.invoice(byReminder)).toMatchObject({ default_since: '2026-10-23', default_interest: '2.34' });
    });

    it('charges the flat fee only once the customer is in default (§ 288 (5))', async () => {
      await d.policy({ default_interest: true, business_flat_fee: true, levels: [{}, { wait_days: 3 }, {}] });
      const id = await d.sentInvoice('2026-09-15', '1190.00');
      await d.runUntil('2026-09-22', id, 'reminder1_sent');
      // Reminder 2 on 25.09., before the deadline of reminder 1 (29.09.) has passed: no default yet.
      await d.runUntil('2026-09-25', id, 'reminder2_sent');
      expect((await d.invoice(id)).reminders[1]).toMatchObject({ flat_fee: '0.0', default_interest: '0.0' });
      // Reminder 3 on 09.10.: the flat fee less the 2.50 fee of reminder 2 credited against it (§ 288 (5)
      // sentence 3), no fee of its own, and 10 days (30.09.–09.10.) × 1190 × 10.27 % / 365 = 3.348… → 3.35.
      await d.runUntil('2026-10-09', id, 'reminder3_sent');
      expect((await d.invoice(id)).reminders[2]).toMatchObject({ fees: '0.0', flat_fee: '37.5', default_interest: '3.35' });
    });

    it('splits a period at the base-rate change of 1 July', async () => {
      // Due 15.06.2025, reminder 1 on 22.06. (deadline 29.06.), default from 30.06.; reminder 2 on 06.07.:
      // 30.06. at 2.27 + 9: 1190 × 11.27 × 1 / 36500 = 0.367… → 0.37; 01.–06.07. at 1.27 + 9: 1190 × 10.27 × 6 / 36500 = 2.008… → 2.01
      const id = await d.sentInvoice('2025-06-15', '1190.00');
      await d.runUntil('2025-06-22', id, 'reminder1_sent');
      await d.runUntil('2025-07-06', id, 'reminder2_sent');
      expect(await lines(id)).toEqual([
        ['interest', '2025-06-30', '2025-06-30', 1, '1190.00', '2.27', 9, '0.37'],
        ['interest', '2025-07-01', '2025-07-06', 6, '1190.00', '1.27', 9, '2.01'],
      ]);
      expect(await d.invoice(id)).toMatchObject({ default_interest: '2.38' });
    });

    it('reverses over-charged interest when a payment is booked back-dated, and charges no day twice', async () => {
      const id = await example();
      // 590.00 paid on 02.10., booked after reminder 2 charged up to 06.10. § 367 on 02.10.: no costs yet
      // (the flat fee came with reminder 2 on 06.10.), interest accrued 30.09.–01.10.: 2 × 1190 × 10.27 / 36500
      // = 0.669… → 0.67, the rest 589.33 pays principal: 600.67 open from 02.10. The 5 days 02.–06.10. were
      // charged on 1190: correction −589.33 × 10.27 × 5 / 36500 = −0.829… → −0.83.
      const paid = await d.pay(id, '590.00', '2026-10-02');
      expect(paid.invoice).toMatchObject({ default_interest: '1.51', open_amount: '641.51' });
      const event = (await d.events(id)).find((e: Json) => e.kind === 'interest_corrected');
      expect(event?.details).toMatchObject({ amount: '-0.83' });
      expect((await lines(id))[1]).toEqual(['correction', '2026-10-02', '2026-10-06', 5, '-589.33', '1.27', 9, '-0.83']);

      // Reminder 3 on 20.10. charges from 07.10. on, never 02.–06.10. again: 14 days × 600.67 × 10.27 / 36500 = 2.366… → 2.37.
      await d.runUntil('2026-10-20', id, 'reminder3_sent');
      expect((await d.invoice(id)).reminders[2]).toMatchObject({ default_interest: '2.37' });
      expect((await lines(id))[2]).toEqual(['interest', '2026-10-07', '2026-10-20', 14, '600.67', '1.27', 9, '2.37']);
      // A payment dated after all charged days changes no charged day: no further correction.
      await d.pay(id, '1.00', '2026-10-21');
      expect((await d.events(id)).filter((e: Json) => e.kind === 'interest_corrected')).toHaveLength(1);
    });

    it('keeps interest running after reminder 3 and records it up to the hand-over to debt collection', async () => {
      const id = await example();
      await d.runUntil('2026-10-20', id, 'reminder3_sent');
      // Reminder 3: 14 days (07.–20.10.) × 1190 × 10.27 % / 365 = 4.687… → 4.69; charged 2.34 + 4.69 = 7.03.
      await d.run('2026-11-03');
      expect(await d.invoice(id)).toMatchObject({ invoice_status: 'ready_for_dept_collection', default_interest: '7.03' });
      // The hand-over is today: interest from 21.10. up to today, 1190 × 10.27 × days / 36500 (as of today,
      // accrued_interest shows the same before the hand-over).
      const today = todayIn('Europe/Berlin');
      const days = (Date.parse(today) - Date.parse('2026-10-21')) / 86_400_000 + 1;
      const due = new Decimal(1190).times('10.27').times(days).div(36500).toFixed(2);
      expect((await d.invoice(id)).accrued_interest).toBe(formatDecimal(due));
      const handed = await d.api().post(`/api/v1/invoices/${id}/hand_to_collection`).send({}).expect(200);
      expect(handed.body.invoice).toMatchObject({ invoice_status: 'sent_to_dept_collection', accrued_interest: '0.0' });
      expect(handed.body.invoice.default_interest).toBe(formatDecimal(new Decimal('7.03').plus(due)));
      expect((await lines(id)).at(-1)).toEqual(['interest', '2026-10-21', today, days, '1190.00', '1.27', 9, due]);
      const event = (await d.events(id)).find((e: Json) => e.kind === 'interest_recorded');
      expect(event?.details).toMatchObject({ amount: formatDecimal(due) });
      expect(addDays('2026-10-21', days - 1)).toBe(today);
    });
  });

  describe('a consumer', () => {
    beforeEach(async () => {
      await d.reset('consumer');
      await d.policy({ default_interest: true, business_flat_fee: true, default_starts: 'thirty_days_business' });
    });

    it('is in default only by the reminder, at base rate + 5 points, without the flat fee', async () => {
      // § 286 (3) binds a consumer only if the invoice said so: default from 30.09. (after the deadline of
      // reminder 1) even under thirty_days_business. 7 days × 1190 × (1.27 + 5) % / 365 = 1.430… → 1.43.
      const id = await example();
      expect(await d.invoice(id)).toMatchObject({ default_since: '2026-09-30', default_interest: '1.43', flat_fee: '0.0' });
      expect(await lines(id)).toEqual([['interest', '2026-09-30', '2026-10-06', 7, '1190.00', '1.27', 5, '1.43']]);
    });
  });
});
