// Booking interest lines on the invoice through the ledger, with the event that explains them: the
// interest recorded at the hand-over to debt collection, and the corrections of a back-dated payment.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Decimal, formatDecimal } from '../../common/money.js';
import type { Invoice } from '../invoice.entity.js';
import { type Actor, InvoicesRepository } from '../invoices.repository.js';
import { InvoiceLedger } from '../ledger/invoice-ledger.js';
import type { InterestLine } from './interest-line.js';
import { InterestLines } from './interest-lines.repository.js';

const sum = (lines: InterestLine[]) => lines.reduce((total, l) => total.plus(l.amount), new Decimal(0));

const wire = (l: InterestLine) => ({
  from: l.from,
  until: l.until,
  days: l.days,
  principal: formatDecimal(l.principal),
  base_rate: l.baseRate,
  points: l.points,
  amount: formatDecimal(l.amount),
});

@Injectable()
export class InterestCharges {
  constructor(
    private readonly lines: InterestLines,
    private readonly ledger: InvoiceLedger,
    private readonly invoices: InvoicesRepository,
  ) {}

  /**
   * Brings the days already charged in line with the payments as they are now (§§ 288, 367 BGB): a
   * payment dated on or before a charged day lowers that day's principal, and the interest charged on
   * the difference is reversed (a correction line, an interest_corrected event). Invoice locked by the caller.
   */
  async correct(m: EntityManager, invoice: Invoice, actor: Actor): Promise<Invoice> {
    const corrections = await this.lines.correct(m, invoice.companyId, invoice.id);
    if (corrections.length === 0) return invoice;
    const amount = sum(corrections);
    const updated = await this.ledger.charge(invoice, { defaultInterest: amount }, m);
    await this.invoices.addEvent(
      invoice,
      actor,
      {
        kind: 'interest_corrected',
        reason: 'a payment changed the principal of days already charged (§ 367 BGB)',
        details: { amount: formatDecimal(amount), lines: corrections.map(wire) },
      },
      m,
    );
    return updated;
  }

  /** Records the interest accrued and not yet charged up to `day` (the hand-over to debt collection). */
  async recordUntil(m: EntityManager, invoice: Invoice, day: string, actor: Actor): Promise<Invoice> {
    const lines = await this.lines.recordUntil(m, invoice.companyId, invoice.id, day);
    if (lines.length === 0) return invoice;
    const amount = sum(lines);
    const updated = await this.ledger.charge(invoice, { defaultInterest: amount }, m);
    await this.invoices.addEvent(
      invoice,
      actor,
      {
        kind: 'interest_recorded',
        reason: `default interest up to ${day}, the day of the hand-over to debt collection`,
        details: { amount: formatDecimal(amount), lines: lines.map(wire) },
      },
      m,
    );
    return updated;
  }
}
