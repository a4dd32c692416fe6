// Reading, changing and moving invoices through their manual status actions.
import { Injectable, Logger } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { EntityManager } from 'typeorm';
import type { CompanyContext } from '../auth/principal.js';
import { todayIn } from '../common/calendar-date.js';
import { defined } from '../common/defined.js';
import { AppError, validationFailed } from '../common/errors.js';
import { parsePublicId } from '../common/ids.js';
import { Decimal } from '../common/money.js';
import type { PageRequest } from '../common/pagination.js';
import { ContactsRepository } from '../contacts/contacts.repository.js';
import { DocumentNotFoundError, DocumentStore } from '../documents/document-store.js';
import type { UpdateInvoiceDto } from './dto/update-invoice.dto.js';
import type { InvoiceEvent } from './invoice-event.entity.js';
import type { Invoice } from './invoice.entity.js';
import { isSettled, moneyFields, moneyStateOf } from './ledger/money.js';
import { assertEditable } from './invoice-rules.js';
import { canApply, type InvoiceAction } from './invoice-status.js';
import { resolveChangedTerms } from './invoice-terms.js';
import { InterestCharges } from './interest/interest-charges.js';
import { InvoiceTransitions } from './ledger/invoice-transitions.js';
import type { InvoiceView } from './invoice.serializer.js';
import { InvoiceViews } from './invoice-views.js';
import { type Actor, type InvoiceFilters, InvoicesRepository } from './invoices.repository.js';
import type { CreatePaymentDto } from './dto/payment.dto.js';
import { PaymentsService } from './payments.service.js';

/** The manual status actions but release, which ships the invoice: shipping's ReleaseService. */
export type ManualAction = Extract<InvoiceAction, 'archive' | 'mark_duplicate' | 'write_off' | 'hand_to_collection'>;

/**
 * Stores the answer to an idempotent request inside the transaction of its work (IdempotencyClaim):
 * the answer commits with the work or not at all, so a retry never does committed work again.
 */
export type AnswerInTransaction = (manager: EntityManager, view: InvoiceView) => Promise<void>;

@Injectable()
export class InvoicesService {
  private readonly logger = new Logger(InvoicesService.name);

  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly views: InvoiceViews,
    private readonly transitions: InvoiceTransitions,
    private readonly contacts: ContactsRepository,
    private readonly documents: DocumentStore,
    private readonly payments: PaymentsService,
    private readonly interest: InterestCharges,
  ) {}

  async get(company: CompanyContext, publicId: string): Promise<InvoiceView> {
    const id = parsePublicId('inv', publicId);
    const view = id ? await this.views.byId(company.id, id) : null;
    if (!view) throw notFound(publicId);
    return view;
  }

  async find(company: CompanyContext, externalId: string): Promise<InvoiceView> {
    const view = await this.views.byExternalId(company.id, externalId);
    if (!view) throw new AppError('invoice.not_found', `No invoice with external_id "${externalId}"`);
    return view;
  }

  async list(company: CompanyContext, filters: InvoiceFilters, page: PageRequest): Promise<{ items: InvoiceView[]; total: number }> {
    // The page with everything it shows and, when it is full, the count; else the page tells the total
    // (an empty page past the first asks for the count).
    const { items, total } = await this.views.page(company.id, filters, page);
    if (total !== null) return { items, total };
    if (items.length > 0 || page.offset === 0) return { items, total: page.offset + items.length };
    return { items, total: await this.invoices.count(company.id, filters) };
  }

  async update(company: CompanyContext, publicId: string, dto: UpdateInvoiceDto, actor: Actor): Promise<InvoiceView> {
    const updated = await this.invoices.transaction(async (manager) => {
      const invoice = await this.require(company, publicId, true, manager);
      assertEditable(invoice.status, Object.keys(defined(dto)));
      const changes: Partial<Invoice> = defined({
        externalId: dto.external_id,
        invoiceNumber: dto.invoice_number,
        additionalNumber: dto.additional_number,
        net: dto.net === undefined ? undefined : (dto.net?.toFixed(2) ?? null),
        vat7: dto.vat7 === undefined ? undefined : (dto.vat7?.toFixed(2) ?? null),
        vat19: dto.vat19 === undefined ? undefined : (dto.vat19?.toFixed(2) ?? null),
        orderDate: dto.order_date,
        shippingMode: dto.shipping_mode,
        ignoreReminderFees: dto.ignore_reminder_fees,
        dunningBlockReason: dto.dunning_block_reason,
        dunningBlockUntil: dto.dunning_block_until,
      });
      if (dto.contact_id !== undefined) changes.contactId = await this.contactOf(company, invoice, dto.contact_id, manager);
      if (dto.total !== undefined) {
        Object.assign(changes, moneyFields({ ...moneyStateOf(invoice), originalTotal: dto.total ?? 0 }));
      }
      if (dto.invoice_date !== undefined || dto.due_date !== undefined || dto.time_for_payment !== undefined) {
        Object.assign(changes, this.terms(company, invoice, dto));
      }
      if (Object.keys(changes).length === 0) return invoice;
      const result = await this.invoices.update(invoice, changes, manager);
      await this.invoices.addEvent(invoice, actor, { kind: 'updated', details: { fields: Object.keys(defined(dto)) } }, manager);
      // A lowered total that the payments so far already cover settles the invoice, as a payment would.
      if (
        changes.openAmount !== undefined &&
        new Decimal(invoice.paidAmount).greaterThan(0) &&
        isSettled({ openAmount: changes.openAmount }) &&
        canApply('settle', result.status)
      ) {
        return this.transitions.apply(manager, result, 'settle', actor, 'total changed: covered by the payments');
      }
      return result;
    });
    return this.views.one(updated);
  }

  async act(
    company: CompanyContext,
    publicId: string,
    action: ManualAction,
    actor: Actor,
    reason: string | null,
    answer?: AnswerInTransaction,
  ): Promise<InvoiceView> {
    return this.answered(answer, async (manager) => {
      let invoice = await this.require(company, publicId, true, manager);
      if (action === 'hand_to_collection' && canApply(action, invoice.status)) {
        // The claim handed over carries the interest accrued up to that day (§ 288 BGB).
        invoice = await this.interest.recordUntil(manager, invoice, todayIn(company.timeZone), actor);
      }
      return this.transitions.apply(manager, invoice, action, actor, reason);
    });
  }

  async recordPayment(
    company: CompanyContext,
    publicId: string,
    dto: CreatePaymentDto,
    actor: Actor,
    answer?: AnswerInTransaction,
  ): Promise<InvoiceView> {
    if (answer) return this.answered(answer, (manager) => this.payments.recordWith(manager, company, publicId, dto, actor));
    const invoice = await this.payments.record(company, publicId, dto, actor);
    return this.get(company, `inv-${invoice.id}`);
  }

  /**
   * Runs the work in a transaction and answers with the invoice's view: read after the commit, or, for
   * an idempotent request, read in the transaction and stored there with the answer. Shipping's release
   * runs in it too.
   */
  async answered(answer: AnswerInTransaction | undefined, work: (manager: EntityManager) => Promise<Invoice>): Promise<InvoiceView> {
    if (!answer) return this.views.one(await this.invoices.transaction(work));
    return this.invoices.transaction(async (manager) => {
      const view = await this.views.one(await work(manager), manager);
      await answer(manager, view);
      return view;
    });
  }

  async events(company: CompanyContext, publicId: string): Promise<InvoiceEvent[]> {
    const invoice = await this.require(company, publicId);
    return this.invoices.events(company.id, invoice.id);
  }

  async openDocument(company: CompanyContext, publicId: string, which: 'pdf' | 'attachment') {
    const invoice = await this.require(company, publicId);
    const key = which === 'pdf' ? invoice.pdfKey : invoice.attachmentKey;
    const size = which === 'pdf' ? invoice.pdfSize : invoice.attachmentSize;
    // An invoice without a PDF of its own (ERP pull) gets one stored when the service ships it; until then …/letter renders it.
    const missing =
      which === 'pdf'
        ? `has no PDF yet: the service renders and stores one when it ships the invoice; GET /api/v1/invoices/${publicId}/letter shows it now`
        : 'has no attachment';
    if (!key) throw new AppError('invoice.document_missing', `Invoice ${publicId} ${missing}`);
    const stream: Readable = await this.documents.openRead(key).catch((error: unknown) => {
      if (!(error instanceof DocumentNotFoundError)) throw error;
      // The row names a file the store no longer has: lost data an operator must restore from a backup.
      this.logger.error({ key, invoice_id: publicId, company_id: company.id }, 'invoice document missing from the store');
      throw new AppError(
        'document.not_found',
        `The ${which === 'pdf' ? 'PDF' : 'attachment'} of invoice ${publicId} is missing from the document store; the operator has been alerted`,
      );
    });
    const name = `${invoice.invoiceNumber ?? publicId}${which === 'attachment' ? '-attachment' : ''}.pdf`.replace(/[^\w.-]+/g, '_');
    return { stream, size: size === null ? undefined : Number(size), filename: name };
  }

  async require(company: CompanyContext, publicId: string, lock = false, manager?: EntityManager): Promise<Invoice> {
    const id = parsePublicId('inv', publicId);
    const invoice = !id
      ? null
      : lock && manager
        ? await this.invoices.lockById(company.id, id, manager)
        : await this.invoices.findById(company.id, id);
    if (!invoice) throw notFound(publicId);
    return invoice;
  }

  /** On the transaction's own connection: the invoice row is locked, and others may queue on it with the rest of the pool. */
  private async contactOf(
    company: CompanyContext,
    invoice: Invoice,
    contactId: string | null,
    manager: EntityManager,
  ): Promise<string | null> {
    if (contactId === null) return null;
    const id = parsePublicId('con', contactId);
    const contact = id ? await this.contacts.findById(company.id, id, manager) : null;
    if (!contact) throw validationFailed([{ field: 'contact_id', message: `no contact ${contactId}` }]);
    if (contact.customerId !== invoice.customerId)
      throw validationFailed([{ field: 'contact_id', message: 'the contact belongs to another customer' }]);
    return contact.id;
  }

  private terms(company: CompanyContext, invoice: Invoice, dto: UpdateInvoiceDto) {
    // A changed date re-derives the other; a value not sent is derived again unless it was the one changed.
    const given = {
      invoiceDate: dto.invoice_date === undefined ? invoice.invoiceDate : dto.invoice_date,
      dueDate: dto.due_date === undefined ? (dto.time_for_payment !== undefined ? null : invoice.dueDate) : dto.due_date,
      timeForPayment: dto.time_for_payment === undefined ? null : dto.time_for_payment,
    };
    const { terms, errors } = resolveChangedTerms(given, todayIn(company.timeZone));
    if (!terms) throw validationFailed(errors);
    return terms;
  }
}

function notFound(publicId: string): AppError {
  return new AppError('invoice.not_found', `Invoice ${publicId} was not found`);
}
