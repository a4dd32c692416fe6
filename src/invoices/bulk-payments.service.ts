// Books many payments in a few statements (the push worker's batches): the invoices locked at once in
// a fixed order, the payments and their events inserted together, the money fields updated together.
// Only where booking them one by one (PaymentsService.recordWith) could do nothing more: an open
// invoice, nothing waived, no interest charged, and the payments staying below the original total.
// Everything else (a payment that settles the invoice, a waiver, a written-off or closed invoice, one
// that may correct charged interest) is left to the caller for the one-by-one path, which holds those rules.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CompanyContext } from '../auth/principal.js';
import { todayIn } from '../common/calendar-date.js';
import { newUuid, toPublicId } from '../common/ids.js';
import { Decimal, formatDecimal } from '../common/money.js';
import type { CreatePaymentDto } from './dto/payment.dto.js';
import { InvoiceLedger } from './ledger/invoice-ledger.js';
import { moneyFields, moneyStateOf } from './ledger/money.js';
import { INVOICE_STATUSES, type InvoiceStatus } from './invoice-status.js';
import { type Actor, type InvoiceEventRow, type InvoiceMoneyRow, InvoicesRepository } from './invoices.repository.js';
import { PaymentsRepository } from './payments.repository.js';

export interface NewPayment {
  company: CompanyContext;
  invoiceId: string;
  dto: CreatePaymentDto;
  actor: Actor;
  source: string;
}

/**
 * Statuses on which a payment below the original total changes the money fields and nothing else: not
 * closed (refused), written off (a recovery event) or paid (reopened).
 */
const PLAIN: readonly InvoiceStatus[] = INVOICE_STATUSES.filter((s) => !['archived', 'duplicate', 'written_off', 'paid'].includes(s));

/** A payment's external_id was taken meanwhile (by a REST payment, say): nothing of the bulk booking stands. */
export class BulkBookingConflict extends Error {}

@Injectable()
export class BulkPaymentsService {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly payments: PaymentsRepository,
    private readonly ledger: InvoiceLedger,
  ) {}

  /**
   * Books the payments whose invoices allow it, in the caller's transaction; answers, per payment,
   * whether it was booked. A payment not booked was left alone, and so was every other payment on its
   * invoice: the caller books those one by one, in their order. Throws BulkBookingConflict when an
   * external_id is taken: the caller rolls the transaction back.
   */
  async recordMany(manager: EntityManager, wanted: NewPayment[]): Promise<boolean[]> {
    if (wanted.length === 0) return [];
    const invoices = await this.invoices.lockMoneyMany(
      wanted.map((p) => ({ companyId: p.company.id, id: p.invoiceId })),
      manager,
    );
    const sums = await this.payments.sums(invoices, manager);
    const byInvoice = new Map<string, NewPayment[]>();
    for (const p of wanted) byInvoice.set(p.invoiceId, [...(byInvoice.get(p.invoiceId) ?? []), p]);
    const bookable = new Map<string, { invoice: InvoiceMoneyRow; paid: Decimal }>();
    for (const invoice of invoices) {
      const mine = byInvoice.get(invoice.id) ?? [];
      const paid = mine.reduce((sum, p) => sum.plus(p.dto.amount), new Decimal(sums.get(invoice.id) ?? 0));
      if (mine.length && mine[0].company.id === invoice.companyId && staysPlain(invoice, paid)) bookable.set(invoice.id, { invoice, paid });
    }
    const booked = wanted.map((p) => bookable.has(p.invoiceId));
    const chosen = wanted.filter((_, i) => booked[i]);
    if (chosen.length === 0) return booked;

    const rows = chosen.map((p) => ({
      companyId: p.company.id,
      invoiceId: p.invoiceId,
      id: newUuid(),
      amount: p.dto.amount.toFixed(2),
      paymentDate: p.dto.payment_date ?? todayIn(p.company.timeZone),
      externalId: p.dto.external_id ?? null,
      note: p.dto.note ?? null,
      source: p.source,
      inkassoPayment: p.dto.inkasso_payment ?? false,
    }));
    if ((await this.payments.insertMany(rows, manager)) < rows.length) throw new BulkBookingConflict();
    const events: InvoiceEventRow[] = chosen.map((p, i) => ({
      invoice: { companyId: p.company.id, id: p.invoiceId },
      actor: p.actor,
      event: { kind: 'payment_recorded', details: { payment_id: toPublicId('pay', rows[i].id), amount: formatDecimal(rows[i].amount) } },
    }));
    await this.invoices.addEvents(events, manager);
    const money = [...bookable.values()].map(({ invoice, paid }) => ({
      companyId: invoice.companyId,
      id: invoice.id,
      fields: moneyFields({ ...moneyStateOf(invoice), paidAmount: paid, waivedAmount: 0 }),
    }));
    await this.ledger.bookMany(money, manager);
    return booked;
  }
}

/** Paid stays below the original total on an open invoice with nothing waived: no settling, waiver, credit or recovery. */
function staysPlain(invoice: InvoiceMoneyRow, paid: Decimal): boolean {
  // Charged interest: a back-dated payment may correct it (InterestCharges.correct), one by one.
  return (
    PLAIN.includes(invoice.status) &&
    new Decimal(invoice.waivedAmount).isZero() &&
    new Decimal(invoice.defaultInterest).isZero() &&
    paid.lessThan(invoice.originalTotal)
  );
}
