// A statement of claim from fixed data, for the samples in docs/letters/ and the renderer's test: the
// worked case of ../shared/LETTERS-DE.md. 1,190.00 EUR due 15.09.2026, business debtor, base rate 1.27 %
// + 9 points = 10.27 % p. a.; reminder 1 on 22.09. (deadline 29.09.), default from 30.09.
//   14.10. reminder 2: flat fee 40.00 (its 2.50 fee credited); interest 30.09.–14.10. (15 days) on
//          1,190.00: 1190 × 10.27 % × 15 / 365 = 5.0224 → 5.02
//   19.10. interest 15.10.–19.10. (5 days) on 1,190.00 = 1.6741 → 1.67, accrued up to the payment
//   20.10. payment 500.00, § 367: costs 40.00, interest 5.02 + 1.67 = 6.69, principal 453.31 → 736.69
//   28.10. reminder 3 (fee credited); interest 20.10.–28.10. (9 days) on 736.69 = 1.8655 → 1.87
//   11.11. hand-over: interest 29.10.–11.11. (14 days) on 736.69 = 2.9020 → 2.90
//   open: principal 736.69, costs 0.00, interest 1.87 + 2.90 = 4.77, total 741.46;
//   then 10.27 % p. a. on 736.69 from 12.11.2026.
import type { StatementOfClaim } from './statement-of-claim.js';
import { renderStatementOfClaim } from './statement-of-claim.js';
import { CLAIM, REMINDER_TITLES } from './messages.de.js';

const line = (from: string, until: string, days: number, principal: string) =>
  ({ kind: 'interest', from, until, days, principal, baseRate: '1.27', points: 9 }) as const;

/** The worked case's view model (see the header). */
export function sampleStatementOfClaim(): StatementOfClaim {
  const interest = (l: ReturnType<typeof line>, amount: string, balance: string) => ({
    date: l.until,
    text: CLAIM.interest(l),
    detail: CLAIM.interestDetail(l),
    amount,
    balance,
  });
  return {
    creditor: {
      name: 'Muster Handel GmbH',
      address: ['Industriestraße 5', '70565 Stuttgart'],
      bank: ['IBAN DE02 1203 0000 0000 2020 51', 'BIC BYLADEM1001', 'Deutsche Kreditbank'],
      legal: ['Muster Handel GmbH', 'Sitz Stuttgart, Amtsgericht Stuttgart HRB 12345'],
    },
    debtor: { name: 'Kunde AG', address: ['Hauptstr. 1', '10115 Berlin'] },
    madeOn: '2026-11-11',
    invoice: { number: '2026-0815', date: '2026-09-01', dueDate: '2026-09-15', description: null },
    rows: [
      { date: '2026-09-01', text: CLAIM.principal, amount: '1190.00', balance: '1190.00' },
      { date: '2026-10-14', text: CLAIM.flatFee, amount: '40.00', balance: '1230.00' },
      { date: '2026-10-14', text: CLAIM.feeCredited(REMINDER_TITLES[1], '2.50'), amount: '0.00', balance: '1230.00' },
      interest(line('2026-09-30', '2026-10-14', 15, '1190.00'), '5.02', '1235.02'),
      interest(line('2026-10-15', '2026-10-19', 5, '1190.00'), '1.67', '1236.69'),
      {
        date: '2026-10-20',
        text: CLAIM.payment('2026-10-20'),
        detail: CLAIM.allocation('40.00', '6.69', '453.31'),
        amount: '-500.00',
        balance: '736.69',
      },
      { date: '2026-10-28', text: CLAIM.feeCredited(REMINDER_TITLES[2], '2.50'), amount: '0.00', balance: '736.69' },
      interest(line('2026-10-20', '2026-10-28', 9, '736.69'), '1.87', '738.56'),
      interest(line('2026-10-29', '2026-11-11', 14, '736.69'), '2.90', '741.46'),
    ],
    open: { principal: '736.69', costs: '0.00', interest: '4.77', total: '741.46' },
    continuing: { baseRate: '1.27', points: 9, principal: '736.69', since: '2026-11-12' },
  };
}

/** The sample as PDF (docs/letters/). */
export function renderSampleStatementOfClaim(): Promise<Uint8Array> {
  return renderStatementOfClaim(sampleStatementOfClaim());
}
