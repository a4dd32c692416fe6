// Creating invoices (spec: Create invoice, and its extended form): the PDF and attachment go to the
// document store (fsynced before anything is answered), the customer, contact and invoice into one
// transaction — or, when customer and contact are only referenced and nothing is released on create,
// into one statement (invoice and event), atomic by itself. If anything fails, nothing is kept: the
// write rolls back and the stored files are deleted again. Files are announced (pending_documents)
// before they are stored and the announcement goes with the commit, so a crash in between leaves
// nothing the hourly sweep does not delete. The answer is built from what was written (a new invoice
// has no payments or reminders yet), not read back.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CompanyContext } from '../auth/principal.js';
import { todayIn } from '../common/calendar-date.js';
import { AppError, validationFailed } from '../common/errors.js';
import { newUuid, parsePublicId } from '../common/ids.js';
import { DocumentStore } from '../documents/document-store.js';
import { PendingDocumentsRepository } from '../documents/pending-documents.repository.js';
import type { StoredUpload } from '../documents/pdf-upload.js';
import type { CreateInvoiceDto } from './dto/create-invoice.dto.js';
import type { Invoice } from './invoice.entity.js';
import type { InvoiceView } from './invoice.serializer.js';
import { InvoiceLedger } from './ledger/invoice-ledger.js';
import { newInvoice } from './ledger/new-invoice.js';
import { InvoiceParties } from './invoice-parties.js';
import { resolveTerms } from './invoice-terms.js';
import { type Actor, type InvoiceValues, InvoicesRepository } from './invoices.repository.js';
import type { AnswerInTransaction } from './invoices.service.js';

export interface InvoiceUploads {
  invoice?: StoredUpload;
  invoice_attachment?: StoredUpload;
}

/**
 * How a new invoice leaves the draft state in its create's transaction, decided by the caller (shipping's
 * ReleaseService: autosend, autoskip) from the company's defaults, which the create's first statement
 * reads. Without `apply` the invoice stays a draft (and a create of referenced parties takes the
 * one-statement path); `skipShipping` gives it the shipping mode skip_shipping.
 */
export interface CreateRelease {
  skipShipping: boolean;
  apply: ((manager: EntityManager, invoice: Invoice) => Promise<Invoice>) | null;
}

export type ReleaseOnCreate = (defaults: { autosend: boolean; autoskipShipping: boolean }) => CreateRelease;

interface StoredFile {
  key: string;
  size: number;
  sha256: Buffer;
}

/**
 * A create whose files took longer than this to store gives up before it commits: the sweep of
 * pending_documents (24 hours of grace) can then never delete the files of a create still running.
 */
const MAX_STORING_MS = 60 * 60 * 1000;

const keyOf = (companyId: string, invoiceId: string, name: string): string => `${companyId}/invoices/${invoiceId}/${name}.pdf`;

@Injectable()
export class InvoiceIntake {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly ledger: InvoiceLedger,
    private readonly parties: InvoiceParties,
    private readonly documents: DocumentStore,
    private readonly pending: PendingDocumentsRepository,
  ) {}

  async create(
    company: CompanyContext,
    dto: CreateInvoiceDto,
    uploads: InvoiceUploads,
    actor: Actor,
    releaseOnCreate: ReleaseOnCreate,
    answer?: AnswerInTransaction,
    source = 'API',
  ): Promise<InvoiceView> {
    if (!uploads.invoice) {
      throw new AppError('document.missing', 'The invoice PDF is required', [
        { field: 'invoice', message: 'invoice (a PDF file) is required' },
      ]);
    }
    // Found by the upload check (PdfUploadInterceptor); a company that refuses it was asked before.
    const pdfActiveContent = uploads.invoice.activeContent != null;
    const { terms, errors } = resolveTerms(
      { invoiceDate: dto.invoice_date ?? null, dueDate: dto.due_date ?? null, timeForPayment: dto.time_for_payment ?? null },
      todayIn(company.timeZone),
    );
    if (!terms) throw validationFailed(errors);
    const id = newUuid();
    const keys = [keyOf(company.id, id, 'invoice'), ...(uploads.invoice_attachment ? [keyOf(company.id, id, 'attachment')] : [])];
    // Customer and contact only referenced: the customer is read with the first statement.
    const onlyReferenced = !dto.customer && !dto.contact && !answer;
    const readCustomer = onlyReferenced && dto.customer_id ? parsePublicId('cus', dto.customer_id) : null;
    const settings = await this.invoices.beginCreate(company.id, id, keys, readCustomer ?? undefined);
    const announced = performance.now();
    const release = releaseOnCreate(settings);
    try {
      const pdf = await this.store(keys[0], uploads.invoice);
      const attachment = uploads.invoice_attachment && (await this.store(keys[1], uploads.invoice_attachment));
      if (performance.now() - announced > MAX_STORING_MS) {
        throw new AppError('service_unavailable', 'Storing the files took too long; nothing was created, please retry');
      }
      const values = (customerId: string, contactId: string | null): InvoiceValues =>
        newInvoice({
          externalId: dto.external_id ?? null,
          customerId,
          contactId,
          invoiceNumber: dto.invoice_number ?? null,
          additionalNumber: dto.additional_number ?? null,
          total: dto.total ?? 0,
          net: dto.net?.toFixed(2) ?? null,
          vat7: dto.vat7?.toFixed(2) ?? null,
          vat19: dto.vat19?.toFixed(2) ?? null,
          orderDate: dto.order_date ?? null,
          ...terms,
          source,
          shippingMode: release.skipShipping ? 'skip_shipping' : (dto.shipping_mode ?? null),
          ignoreReminderFees: dto.ignore_reminder_fees ?? false,
          pdfKey: pdf.key,
          pdfSize: String(pdf.size),
          pdfSha256: pdf.sha256,
          pdfActiveContent,
          attachmentKey: attachment?.key ?? null,
          attachmentSize: attachment ? String(attachment.size) : null,
          attachmentSha256: attachment?.sha256 ?? null,
          attachmentActiveContent: uploads.invoice_attachment?.activeContent != null,
        });
      const createdEvent = { kind: 'created', toStatus: 'draft' } as const;
      if (onlyReferenced && !release.apply) {
        // Customer and contact are only read: the one write (invoice and event in one statement) is
        // atomic by itself, without BEGIN and COMMIT round trips.
        const manager = this.invoices.manager;
        const customer =
          readCustomer && dto.customer_id
            ? this.parties.namedCustomer(dto.customer_id, settings.customer)
            : await this.parties.customer(company.id, dto.customer_id, undefined, manager);
        const contact = await this.parties.contact(company.id, customer, dto.contact_id, undefined, manager);
        const invoice = await this.ledger.createWithEvent(company.id, id, values(customer.id, contact?.id ?? null), actor, createdEvent, {
          settlePendingDocuments: true,
        });
        return { invoice, customer, contact, payments: [], reminders: [] };
      }
      return await this.invoices.transaction(async (manager) => {
        const customer = await this.parties.customer(company.id, dto.customer_id, dto.customer, manager);
        const contact = await this.parties.contact(company.id, customer, dto.contact_id, dto.contact, manager);
        const invoice = await this.ledger.create(company.id, id, values(customer.id, contact?.id ?? null), manager);
        await this.invoices.addEvent(invoice, actor, createdEvent, manager);
        await this.pending.settle(company.id, id, manager);
        const created = release.apply ? await release.apply(manager, invoice) : invoice;
        const view = { invoice: created, customer, contact, payments: [], reminders: [] };
        if (answer) await answer(manager, view);
        return view;
      });
    } catch (error) {
      // Files first, then their announcement: whatever a crash here leaves, the sweep removes.
      await Promise.all(keys.map((key) => this.documents.delete(key).catch(() => undefined)));
      await this.pending.settle(company.id, id).catch(() => undefined);
      throw error;
    }
  }

  private async store(key: string, upload: StoredUpload): Promise<StoredFile> {
    await this.documents.putUpload(key, upload.path, 'application/pdf', { durable: upload.durable });
    return { key, size: upload.size, sha256: Buffer.from(upload.sha256, 'hex') };
  }
}
