// The statement of claim for the worked case of src/letters/statement-of-claim.sample.ts (computed by
// hand there): assembled from the invoice's records, then rendered and read back from the PDF.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Invoice } from '../../invoices/invoice.entity.js';
import type { InterestLine } from '../../invoices/interest/interest-line.js';
import type { Payment } from '../../invoices/payment.entity.js';
import type { Reminder } from '../../invoices/reminder.entity.js';
import { renderStatementOfClaim } from '../../letters/statement-of-claim.js';
import { sampleStatementOfClaim } from '../../letters/statement-of-claim.sample.js';
import { renderPdf } from '../../../test/support/pdf-render.js';
import { assembleStatement, type ClaimRecords } from './statement-of-claim.assembler.js';

const booked = new Date('2026-10-01T08:00:00Z');
const reminder = (stage: number, date: string, fees: string, flatFee: string, interest: string) =>
  ({ reminderStage: stage, reminderDate: date, fees, flatFee, defaultInterest: interest, dispatchedAt: booked }) as Reminder;
const line = (from: string, until: string, days: number, principal: string, amount: string): InterestLine => ({
  kind: 'interest',
  from,
  until,
  days,
  principal,
  baseRate: '1.27',
  points: 9,
  amount,
  reminderId: null,
});

function records(): ClaimRecords {
  return {
    invoice: {
      originalTotal: '1190.00',
      invoiceDate: '2026-09-01',
      dueDate: '2026-09-15',
      ignoreReminderFees: false,
    } as Invoice,
    number: '2026-0815',
    sender: {
      name: 'Muster Handel GmbH',
      address: ['Industriestraße 5', '70565 Stuttgart'],
      contact: [],
      legal: ['Muster Handel GmbH', 'Sitz Stuttgart, Amtsgericht Stuttgart HRB 12345'],
      bank: ['IBAN DE02 1203 0000 0000 2020 51', 'BIC BYLADEM1001', 'Deutsche Kreditbank'],
    },
    debtor: { name: 'Kunde AG', address: ['Hauptstr. 1', '10115 Berlin'] },
    reminders: [
      reminder(1, '2026-09-22', '0.00', '0.00', '0.00'),
      reminder(2, '2026-10-14', '0.00', '40.00', '5.02'),
      reminder(3, '2026-10-28', '0.00', '0.00', '3.54'),
      { ...reminder(3, '2026-11-20', '5.00', '0.00', '1.00'), id: 'pending', dispatchedAt: null },
    ],
    payments: [{ amount: '500.00', paymentDate: '2026-10-20' } as Payment],
    interestLines: [
      line('2026-09-30', '2026-10-14', 15, '1190.00', '5.02'),
      line('2026-10-15', '2026-10-19', 5, '1190.00', '1.67'),
      line('2026-10-20', '2026-10-28', 9, '736.69', '1.87'),
      line('2026-10-29', '2026-11-11', 14, '736.69', '2.90'),
      { ...line('2026-11-12', '2026-11-20', 9, '736.69', '1.00'), reminderId: 'pending' },
    ],
    stages: [
      { title: 'Zahlungserinnerung', fee: '0.00' },
      { title: '1. Mahnung', fee: '2.50' },
      { title: 'Letzte Mahnung', fee: '2.50' },
    ],
    madeOn: '2026-11-11',
  };
}

describe('statement of claim', () => {
  it('allocates the payment by § 367 (costs, interest, principal), credits the fees against the flat fee and keeps a running balance', () => {
    // Reminder 1 charges nothing and gets no row; the reminder not yet booked (no dispatch) charges nothing, nor does its interest.
    expect(assembleStatement(records())).toEqual(sampleStatementOfClaim());
  });

  it('prints every figure of the worked case, amounts right-aligned in their columns, and the interest that keeps running', async () => {
    const pages = renderPdf(await renderStatementOfClaim(assembleStatement(records())));
    // `LETTER_SAMPLES=write` writes the sample of docs/letters/ (see its README).
    if (process.env.LETTER_SAMPLES === 'write')
      await writeFile(join(import.meta.dirname, '../../../docs/letters/statement-of-claim.png'), pages[0].png);
    expect(pages).toHaveLength(1);
    const lines = pages[0].lines;
    const texts = lines.map((l) => l.text.replace(/\u00a0/g, ' '));
    const all = texts.join(' ');
    expect(lines.filter((l) => l.size >= 16).map((l) => l.text)).toEqual(['Forderungsaufstellung']);
    for (const expected of [
      'Stand: 11.11.2026',
      'Gläubiger',
      'Schuldner',
      'Forderung aus Rechnung Nr. 2026-0815 vom 01.09.2026, fällig am 15.09.2026',
      'Hauptforderung',
      'Verzugspauschale gemäß § 288 Abs. 5 BGB',
      'Mahnkosten (1. Mahnung) 2,50 €, auf die Pauschale angerechnet',
      'Zinsen 30.09.2026 – 14.10.2026 (15 Tage)',
      'Verzugszinsen gemäß § 288 Abs. 2 BGB: 9 Prozentpunkte über dem Basiszinssatz von 1,27 %, also 10,27 % p. a. auf 1.190,00 €',
      'Zahlung vom 20.10.2026',
      'verrechnet gemäß § 367 BGB auf Kosten 40,00 €, Zinsen 6,69 €, Hauptforderung 453,31 €',
      'Zinsen 20.10.2026 – 28.10.2026 (9 Tage)',
      'Zinsen 29.10.2026 – 11.11.2026 (14 Tage)',
    ])
      expect(all).toContain(expected);
    // Each row's amount and balance: the amount column ends at 160 mm, the balance column at 190 mm.
    // Glyph boxes end within a millimetre of the column's edge.
    const rightEdge = (text: string) => lines.filter((l) => l.text === text).map((l) => 10 * Math.round((l.x + l.w) / 10));
    expect(rightEdge('1.190,00')).toEqual([160, 190]);
    expect(rightEdge('-500,00')).toEqual([160]);
    expect(rightEdge('736,69')).toEqual([190, 190, 190]);
    expect(rightEdge('741,46')).toEqual([190, 190]);
    const sums = ['Hauptforderung 736,69', 'Kosten 0,00', 'Zinsen 4,77', 'Gesamtforderung 741,46'];
    const tail = lines.filter((l) => l.y > lines.find((x) => x.text.startsWith('Offen zum Stand 11.11.2026'))!.y);
    const rowsOf = new Map<number, string[]>();
    for (const l of tail) rowsOf.set(Math.round(l.y), [...(rowsOf.get(Math.round(l.y)) ?? []), l.text]);
    const byLine = [...rowsOf.entries()].sort(([a], [b]) => a - b).map(([, r]) => r.join(' '));
    expect(byLine.slice(0, 4)).toEqual(sums);
    expect(all).toContain(
      'zzgl. Zinsen in Höhe von 10,27 % p. a. auf 736,69 € seit dem 12.11.2026 (9 Prozentpunkte über dem Basiszinssatz von 1,27 %, also 10,27 % p. a.)',
    );
  });

  it('states no running interest once the principal is paid', () => {
    const r = records();
    r.payments.push({ amount: '741.46', paymentDate: '2026-11-11' } as Payment);
    const statement = assembleStatement(r);
    expect(statement.open).toEqual({ principal: '0.00', costs: '0.00', interest: '0.00', total: '0.00' });
    expect(statement.rows.at(-1)?.detail?.replace(/\u00a0/g, ' ')).toBe(
      'verrechnet gemäß § 367 BGB auf Kosten 0,00 €, Zinsen 4,77 €, Hauptforderung 736,69 €',
    );
    expect(statement.rows.at(-1)?.balance).toBe('0.00');
    expect(statement.continuing).toBeNull();
  });
});
