// Payments and credit memos: money booked on the invoice named by invoice_external_id, through
// PaymentsService (row lock on the invoice, open amount and status in the same transaction).
// Exactly once in effect: the entry's external_id is derived from the document, so a document
// applied twice finds its entry and changes nothing; a changed version replaces the entry. A pushed
// payment keeps the ERP's own id as its external_id (that is what the client looks for); a credit
// memo's entry is `credit_memo:<id>`, as credit memos and payments number independently in an ERP.
// Push only ever changes entries that push booked: an entry with the same external_id booked through
// the REST API or by the ERP pull is left alone and the document fails for good (a conflict).
import { Injectable } from '@nestjs/common';
import { todayIn } from '../../common/calendar-date.js';
import { AppError } from '../../common/errors.js';
import { toPublicId } from '../../common/ids.js';
import { Decimal } from '../../common/money.js';
import type { CreatePaymentDto } from '../../invoices/dto/payment.dto.js';
import { InvoicesRepository } from '../../invoices/invoices.repository.js';
import { BulkPaymentsService } from '../../invoices/bulk-payments.service.js';
import { PaymentsService } from '../../invoices/payments.service.js';
import type { CreditMemoPayload, PaymentPayload } from '../dto/push-document.dto.js';
import type { EntityManager } from 'typeorm';
import { type LedgerEntry, type LedgerLookup, LedgerRepository } from '../ledger.repository.js';
import type { PushDocument, ResultType } from '../push-document.js';
import type { DocumentProcessor, ProcessContext, ProcessResult } from './processor.js';

interface Booking {
  externalId: string;
  invoiceExternalId: string;
  amount: string;
  date: string | null;
  note: string | null;
  inkasso: boolean;
  source: string;
  resultType: ResultType;
}

@Injectable()
export class LedgerProcessor {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly payments: PaymentsService,
    private readonly ledger: LedgerRepository,
    private readonly bulk: BulkPaymentsService,
  ) {}

  readonly payment: DocumentProcessor = { apply: (ctx) => this.book(ctx, bookingOf(ctx.document)) };

  /** A credit memo reduces the open amount: it is booked as a credit entry (source CREDIT_MEMO) on the invoice. */
  readonly creditMemo: DocumentProcessor = { apply: (ctx) => this.book(ctx, bookingOf(ctx.document)) };

  /** Locks the batch's invoices in one statement and one order, when there are two or more. */
  async lockInvoices(invoices: Array<{ companyId: string; id: string }>, manager: EntityManager): Promise<void> {
    if (new Set(invoices.map((i) => i.id)).size < 2) return;
    await this.invoices.lockMoneyMany(invoices, manager);
  }

  /**
   * New entries on invoices the batch's lookup found, booked together (BulkPaymentsService) where the
   * invoice allows it; answers the documents booked. The others, and every other document on their
   * invoices, are left for apply(), one by one. Throws BulkBookingConflict (roll back, go one by one).
   */
  async bookNew(
    contexts: Array<ProcessContext & { ledger: LedgerLookup & { invoiceId: string } }>,
    manager: EntityManager,
  ): Promise<Map<string, ProcessResult>> {
    const bookings = contexts.map((ctx) => bookingOf(ctx.document));
    const booked = await this.bulk.recordMany(
      manager,
      contexts.map((ctx, i) => ({
        company: ctx.company,
        invoiceId: ctx.ledger.invoiceId,
        dto: dtoOf(bookings[i], ctx.company.timeZone),
        actor: ctx.actor,
        source: bookings[i].source,
      })),
    );
    const results = new Map<string, ProcessResult>();
    contexts.forEach((ctx, i) => {
      if (booked[i]) results.set(ctx.document.id, applied(bookings[i]));
    });
    return results;
  }

  /**
   * What book() looks up first, for a whole batch in one statement. Only versions of one external_id
   * share an entry, and they are never in one batch, so an entry missing here is missing in the batch's
   * transaction too; an invoice missing here is looked for again (an invoice document earlier in the
   * batch may have created it).
   */
  lookupMany(documents: PushDocument[], manager: EntityManager): Promise<LedgerLookup[]> {
    return this.ledger.lookupMany(
      documents.map((d) => ({
        companyId: d.companyId,
        invoiceExternalId: String(d.payload.invoice_external_id),
        entryExternalId: entryExternalId(d),
      })),
      manager,
    );
  }

  private async book(ctx: ProcessContext, booking: Booking): Promise<ProcessResult> {
    const { company, manager, actor } = ctx;
    const invoiceId = ctx.ledger?.invoiceId ?? (await this.invoices.findByExternalId(company.id, booking.invoiceExternalId, manager))?.id;
    if (!invoiceId) {
      throw new AppError('invoice.not_found', `No invoice with external_id "${booking.invoiceExternalId}" (yet): push the invoice first`);
    }
    const invoice = { id: invoiceId };
    const existing = ctx.ledger
      ? (ctx.ledger.entry ?? undefined)
      : await this.ledger.findByExternalId(company.id, booking.externalId, manager);
    if (existing && existing.source !== booking.source) throw foreignEntry(existing, booking);
    if (existing) {
      const same =
        existing.invoiceId === invoice.id &&
        new Decimal(existing.amount).equals(booking.amount) &&
        (booking.date === null || existing.paymentDate === booking.date) &&
        existing.note === booking.note &&
        existing.inkassoPayment === booking.inkasso;
      if (same) return { outcome: 'unchanged', result: { type: booking.resultType, id: existing.id } };
      await this.payments.removeWith(manager, company, `inv-${existing.invoiceId}`, `pay-${existing.id}`, actor);
    }
    await this.payments.recordWith(manager, company, `inv-${invoice.id}`, dtoOf(booking, company.timeZone), actor, booking.source);
    return applied(booking);
  }
}

/** What a payment or credit memo document books. */
function bookingOf(document: PushDocument): Booking {
  if (document.documentType === 'credit_memo') {
    const p = document.payload as unknown as CreditMemoPayload;
    return {
      externalId: entryExternalId(document),
      invoiceExternalId: p.invoice_external_id,
      amount: p.amount,
      date: p.credit_date ?? null,
      note: p.note ?? `Gutschrift ${document.externalId}`,
      inkasso: false,
      source: 'CREDIT_MEMO',
      resultType: 'credit',
    };
  }
  const p = document.payload as unknown as PaymentPayload;
  return {
    externalId: document.externalId,
    invoiceExternalId: p.invoice_external_id,
    amount: p.amount,
    date: p.payment_date ?? null,
    note: p.note ?? null,
    inkasso: p.inkasso_payment ?? false,
    source: 'PUSH',
    resultType: 'payment',
  };
}

function dtoOf(booking: Booking, timeZone: string): CreatePaymentDto {
  return {
    amount: new Decimal(booking.amount),
    payment_date: booking.date ?? todayIn(timeZone),
    external_id: booking.externalId,
    note: booking.note,
    inkasso_payment: booking.inkasso,
  };
}

const applied = (booking: Booking): ProcessResult => ({
  outcome: 'applied',
  result: { type: booking.resultType, entryExternalId: booking.externalId },
});

/** The external_id of the entry a document books: the ERP's payment id, or `credit_memo:<id>`. */
function entryExternalId(document: PushDocument): string {
  return document.documentType === 'credit_memo' ? `credit_memo:${document.externalId}` : document.externalId;
}

const BOOKED_BY: Record<string, string> = {
  API: 'through the REST API',
  ERP: 'by the ERP pull',
  PUSH: 'by a pushed payment',
  CREDIT_MEMO: 'by a pushed credit memo',
};

/** The external_id belongs to an entry push did not book: changing or deleting it is not push's to do. */
function foreignEntry(existing: LedgerEntry, booking: Booking): AppError {
  const by = BOOKED_BY[existing.source] ?? `with source ${existing.source}`;
  return new AppError(
    'payment.external_id_taken',
    `A payment with external_id "${booking.externalId}" was booked ${by} (${toPublicId('pay', existing.id)} on ${toPublicId('inv', existing.invoiceId)}); ` +
      'a pushed document never changes it. Delete that payment and replay this document, or discard it',
    [],
    { existing_id: toPublicId('pay', existing.id) },
  );
}
