// Documents that say how each amount came about (issue 16): the interest lines of reminder letters and
// e-mails (principal, rate as base rate + points, period, days, amount — adding up to the interest the
// invoice charges), the fee credited against the § 288 (5) flat fee, and the statement of claim of the
// hand-over to debt collection, whose total is the invoice's open amount.
import { withoutRateLimits } from '../support/factories.js';
import { DunningHarness, type Json } from '../support/dunning.js';
import { pdfText } from '../support/pdf-text.js';
import { shippingTestConfig } from '../support/shipping.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { registerCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';
import request from 'supertest';

const nbsp = (text: string) => text.replace(/\u00a0/g, ' ');
const euro = (value: string) => `${Number(value).toLocaleString('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} €`;
const dateDe = (iso: string) => iso.split('-').reverse().join('.');
const daysOf = (from: string, until: string) => Math.round((Date.parse(until) - Date.parse(from)) / 86_400_000) + 1;
/** The line as ../shared/LETTERS-DE.md writes it, from the reminder's interest period (base rate 1.27 % in 2026). */
const interestLine = (line: Json, principal: string) =>
  `Verzugszinsen gemäß § 288 Abs. 2 BGB (9 Prozentpunkte über dem Basiszinssatz von 1,27 %, also 10,27 % p. a.) ` +
  `auf ${euro(principal)} vom ${dateDe(line.from)} bis ${dateDe(line.until)} (${daysOf(line.from, line.until)} Tage)`;

describe('documents that say how each amount came about', () => {
  let smtp: TestSmtp;
  let config: ReturnType<typeof shippingTestConfig>;
  let d: DunningHarness;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    config = shippingTestConfig(smtp.url);
  });
  const t = useTestApp(() => ({ ...withoutRateLimits(), ...config }), { reset: 'manual' });
  beforeAll(async () => {
    d = new DunningHarness(t.app);
    await d.reset('business');
    await d.policy({ default_interest: true, business_flat_fee: true });
  });
  afterAll(async () => smtp.close());

  const letterOf = async (id: string, reminder: Json) =>
    nbsp(await pdfText((await d.api().get(`/api/v1/invoices/${id}/reminders/${reminder.id}/letter`).expect(200)).body));
  const mailOf = (stage: number) => nbsp(smtp.received[stage - 1].parsed.text ?? '');
  const interestOf = (reminder: Json) => reminder.lines.find((l: Json) => l.kind === 'default_interest');

  it('itemises interest per period, credits the fee against the flat fee, and states the claim after the hand-over', async () => {
    // 1,190.00 EUR business invoice due 15.09.2026; reminder 1 on 22.09. (7 days overdue) is free.
    const id = await d.sentInvoice('2026-09-15', '1190.00', { invoice_number: '2026-0815' });
    await d.runUntil('2026-09-22', id, 'reminder1_sent');
    await waitForMails(1);
    expect(smtp.received[0].parsed.subject).toBe('Zahlungserinnerung zur Rechnung 2026-0815');

    // Reminder 2 on 06.10.: the flat fee (40.00), its 2.50 fee credited against it, interest on 1,190.00 at
    // 1.27 + 9 = 10.27 % p. a. from default (the day after reminder 1's deadline 29.09.) to 06.10.:
    // 7 days, 1190 × 10.27 % × 7 / 365 = 2.3439 → 2.34.
    await d.runUntil('2026-10-06', id, 'reminder2_sent');
    let invoice = await d.invoice(id);
    const second = invoice.reminders[1];
    const firstPeriod = interestOf(second);
    expect(firstPeriod.amount).toBe(invoice.default_interest);
    const letter2 = await letterOf(id, second);
    expect(letter2).toContain('1. Mahnung zur Rechnung 2026-0815');
    expect(letter2).toContain('Verzugspauschale gemäß § 288 Abs. 5 BGB 40,00 €');
    expect(letter2).toContain('Mahnkosten 2,50 € (auf die Pauschale angerechnet) 0,00 €');
    expect(letter2.replace(/\n/g, ' ')).toContain(`${interestLine(firstPeriod, '1190.00')} ${euro(firstPeriod.amount)}`);
    expect(letter2).toContain(`Offener Betrag ${euro(invoice.open_amount)}`);
    await waitForMails(2);
    // The customer's only contact, Erika Muster, is greeted by her surname.
    expect(mailOf(2)).toMatch(/^Sehr geehrte Frau Muster,\n\nanbei erhalten Sie unsere 1\. Mahnung zur Rechnung 2026-0815\./);
    expect(mailOf(2)).toContain(`${interestLine(firstPeriod, '1190.00')}: ${euro(firstPeriod.amount)}`);
    expect(mailOf(2)).toContain('Mahnkosten 2,50 € (auf die Pauschale angerechnet): 0,00 €');
    expect(mailOf(2)).toContain(`Offener Betrag: ${euro(invoice.open_amount)}`);

    // A payment of 500.00 on 13.10.; reminder 3 on 20.10. charges the next period. The letter lists both
    // periods, and their amounts add up to the interest the invoice charges.
    await d.pay(id, '500.00', '2026-10-13');
    await d.runUntil('2026-10-20', id, 'reminder3_sent');
    invoice = await d.invoice(id);
    const secondPeriod = interestOf(invoice.reminders[2]);
    const letter3 = (await letterOf(id, invoice.reminders[2])).replace(/\n/g, ' ');
    const printed = [
      ...letter3.matchAll(
        /Verzugszinsen gemäß § 288 Abs\. 2 BGB \(.*?\) auf [\d.,]+ € vom ([\d.]+) bis ([\d.]+) \((\d+) Tage\) ([\d.,]+) €/g,
      ),
    ];
    // The periods run without gap or overlap from the first day of default to reminder 3 (a period may be
    // split where the principal or the base rate changes), each with its own days.
    const iso = (de: string) => de.split('.').reverse().join('-');
    const periods = printed.map((m) => ({ from: iso(m[1]), until: iso(m[2]), days: Number(m[3]) }));
    expect(periods.length).toBeGreaterThanOrEqual(2);
    expect(periods[0]).toEqual({ from: firstPeriod.from, until: firstPeriod.until, days: daysOf(firstPeriod.from, firstPeriod.until) });
    expect(periods.at(-1)?.until).toBe(secondPeriod.until);
    periods.forEach((p, i) => {
      expect(p.days).toBe(daysOf(p.from, p.until));
      if (i > 0) expect(daysOf(periods[i - 1].until, p.from)).toBe(2);
    });
    const sum = printed.reduce((total, m) => total + Math.round(Number(m[4].replace(/\./g, '').replace(',', '.')) * 100), 0);
    expect((sum / 100).toFixed(2)).toBe(Number(invoice.default_interest).toFixed(2));
    expect(letter3).toContain('Letzte Mahnung zur Rechnung 2026-0815');
    // The payment with its § 367 allocation: the flat fee 40.00, the interest accrued up to 12.10. (2.34 for
    // 30.09.–06.10. and 07.10.–12.10., 6 days: 1190 × 10.27 % × 6 / 365 = 2.0090 → 2.01; together 4.35), then
    // 455.65 of the principal, leaving 734.35; 13.10.–20.10. (8 days): 734.35 × 10.27 % × 8 / 365 = 1.6530 → 1.65.
    expect(firstPeriod).toMatchObject({ from: '2026-09-30', until: '2026-10-06', amount: '2.34' });
    expect(letter3).toContain('auf 1.190,00 € vom 07.10.2026 bis 12.10.2026 (6 Tage) 2,01 €');
    expect(letter3).toContain('auf 734,35 € vom 13.10.2026 bis 20.10.2026 (8 Tage) 1,65 €');
    expect(letter3).toContain(
      'Ihre Zahlung vom 13.10.2026, verrechnet gemäß § 367 BGB auf Kosten 40,00 €, Zinsen 4,35 €, Hauptforderung 455,65 € -500,00 €',
    );
    expect(letter3).toContain(`Offener Betrag ${euro(invoice.open_amount)}`);
    expect(letter3).toContain('Mahnkosten 2,50 € (auf die Pauschale angerechnet) 0,00 €');
    await waitForMails(3);
    expect(mailOf(3)).toContain('auf 734,35 € vom 13.10.2026 bis 20.10.2026 (8 Tage): 1,65 €');
    expect(mailOf(3)).toContain(
      'Ihre Zahlung vom 13.10.2026, verrechnet gemäß § 367 BGB auf Kosten 40,00 €, Zinsen 4,35 €, Hauptforderung 455,65 €: -500,00 €',
    );

    // No statement of claim before the hand-over.
    const before = await d.api().get(`/api/v1/invoices/${id}/statement_of_claim`).expect(409);
    expect(before.body.code).toBe('invoice.not_handed_over');
    await d.runUntil('2026-11-03', id, 'ready_for_dept_collection');
    await d.api().post(`/api/v1/invoices/${id}/hand_to_collection`).expect(200);
    invoice = await d.invoice(id);

    const events = await d.events(id);
    const handOver = events.find((e) => e.to_status === 'sent_to_dept_collection');
    expect(handOver?.documents).toEqual([
      { kind: 'statement_of_claim', url: expect.stringMatching(new RegExp(`/api/v1/invoices/${id}/statement_of_claim$`)) },
    ]);
    expect(events.filter((e) => e.documents.length > 0)).toHaveLength(1);

    const res = await d.api().get(`/api/v1/invoices/${id}/statement_of_claim`).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const statement = nbsp(await pdfText(res.body)).replace(/\n/g, ' ');
    expect(statement).toContain('Forderungsaufstellung');
    expect(statement).toContain('Forderung aus Rechnung Nr. 2026-0815 vom 01.01.2025, fällig am 15.09.2026');
    expect(statement).toContain('Hauptforderung 1.190,00 1.190,00');
    expect(statement).toContain('Verzugspauschale gemäß § 288 Abs. 5 BGB 40,00');
    // The wrapped row reads "… auf die Pauschale <amount> <balance> angerechnet" line by line.
    expect(statement).toMatch(/Mahnkosten \(1\. Mahnung\) 2,50 €, auf die Pauschale 0,00 1\.230,00 angerechnet/);
    expect(statement).toContain(
      `Zinsen ${dateDe(firstPeriod.from)} – ${dateDe(firstPeriod.until)} (${daysOf(firstPeriod.from, firstPeriod.until)} Tage)`,
    );
    // § 367: the payment of 13.10. settles the flat fee, then the interest accrued by then, then principal
    // (1190 + 40 + 2.34 + 2.01 − 500 = 734.35).
    expect(statement).toContain('Zahlung vom 13.10.2026 -500,00 734,35');
    expect(statement).toContain('verrechnet gemäß § 367 BGB auf Kosten 40,00 €, Zinsen 4,35 €, Hauptforderung 455,65 €');
    expect(statement).toContain(`Gesamtforderung ${euro(invoice.open_amount).replace(' €', '')}`);
    expect(statement).toMatch(/zzgl\. Zinsen in Höhe von 10,27 % p\. a\. auf [\d.,]+ € seit dem \d\d\.\d\d\.2026/);

    // Another company's credential: 404, as for an id that does not exist.
    const other = await registerCompany(t.app);
    await request(t.app.getHttpServer()).get(`/api/v1/invoices/${id}/statement_of_claim`).set('Authorization', other.auth).expect(404);
  });

  async function waitForMails(count: number): Promise<void> {
    const until = Date.now() + 20_000;
    while (smtp.received.length < count) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${count} mails`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
});
