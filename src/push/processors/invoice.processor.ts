// Invoice documents: create or update the invoice with the document's external_id. Its customer is
// the one with customer_external_id (created or updated from a nested `customer` when given). A new
// invoice gets the pushed PDF, or one rendered from its fields; it starts as a draft and is released
// on creation as the options or the company settings say, exactly as POST /api/v1/invoices does
// (autosend ships it through ShippingService in this transaction). A changed document changes what it
// names: a field left out stays, a field sent as null is cleared; fields a sent invoice may no longer
// change make it fail for good.
import { Injectable } from '@nestjs/common';
import { CompaniesRepository } from '../../companies/companies.repository.js';
import { todayIn } from '../../common/calendar-date.js';
import { AppError, validationFailed } from '../../common/errors.js';
import { Decimal } from '../../common/money.js';
import { newUuid } from '../../common/ids.js';
import type { Customer } from '../../customers/customer.entity.js';
import { CustomersRepository } from '../../customers/customers.repository.js';
import { DocumentStore } from '../../documents/document-store.js';
import { inspectPdfBytes } from '../../documents/pdf-inspection.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import { isSettled, moneyFields, moneyStateOf } from '../../invoices/ledger/money.js';
import { assertEditable, assertReleasable } from '../../invoices/invoice-rules.js';
import { canApply } from '../../invoices/invoice-status.js';
import { resolveTerms } from '../../invoices/invoice-terms.js';
import { InvoiceLedger } from '../../invoices/ledger/invoice-ledger.js';
import { InvoiceTransitions } from '../../invoices/ledger/invoice-transitions.js';
import { newInvoice } from '../../invoices/ledger/new-invoice.js';
import { InvoicesRepository } from '../../invoices/invoices.repository.js';
import { ShippingService } from '../../shipping/shipments/shipping.service.js';
import type { InvoicePayload } from '../dto/push-document.dto.js';
import { changedSupply, pushedSupply } from '../intake/pushed-supply.js';
import { CustomerProcessor } from './customer.processor.js';
import { isRenderedKey, pdfKeyFor, renderFor, sha256, type StoredPdf } from './invoice-files.js';
import type { DocumentProcessor, ProcessContext, ProcessResult } from './processor.js';
import { resolveRelease } from '../../shipping/release/release-options.js';
import { ActivePdfPolicy } from '../../shipping/settings/active-pdf-policy.js';
import { ShippingSettingsRepository } from '../../shipping/settings/shipping-settings.repository.js';

const money = (value: string | null | undefined) => (value == null ? null : new Decimal(value).toFixed(2));

/** The invoice fields a document can change, compared as text. */
const FIELDS = ['invoice_number', 'additional_number', 'net', 'vat7', 'vat19', 'order_date', 'shipping_mode', 'total'] as const;
type Field = (typeof FIELDS)[number];

interface Applied {
  invoice: Invoice;
  changed: boolean;
  notes: string[];
}

@Injectable()
export class InvoiceProcessor implements DocumentProcessor {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly customers: CustomersRepository,
    private readonly customerProcessor: CustomerProcessor,
    private readonly transitions: InvoiceTransitions,
    private readonly ledger: InvoiceLedger,
    private readonly companies: CompaniesRepository,
    private readonly documents: DocumentStore,
    private readonly shipping: ShippingService,
    private readonly activePdf: ActivePdfPolicy,
    private readonly shippingSettings: ShippingSettingsRepository,
  ) {}

  async apply(ctx: ProcessContext): Promise<ProcessResult> {
    const { company, document, manager } = ctx;
    const p = document.payload as unknown as InvoicePayload;
    const nested = p.customer ? await this.customerProcessor.upsert(company.id, p.customer_external_id, p.customer, manager) : undefined;
    const customer = nested?.customer ?? (await this.customers.findByExternalId(company.id, p.customer_external_id, manager));
    if (!customer) {
      throw new AppError(
        'customer.not_found',
        `No customer with external_id "${p.customer_external_id}" (yet): push the customer first, or send its fields as customer`,
      );
    }
    const existing = await this.invoices.findByExternalId(company.id, document.externalId, manager);
    const done = existing ? await this.update(ctx, existing, customer, nested?.changed ?? false, p) : await this.create(ctx, customer, p);
    const changed = done.changed || (nested?.changed ?? false);
    return { outcome: changed ? 'applied' : 'unchanged', result: { type: 'invoice', id: done.invoice.id }, notes: done.notes };
  }

  private async create(ctx: ProcessContext, customer: Customer, p: InvoicePayload): Promise<Applied> {
    const { company, document, manager, actor } = ctx;
    const { terms, errors } = resolveTerms(
      { invoiceDate: p.invoice_date ?? null, dueDate: p.due_date ?? null, timeForPayment: p.time_for_payment ?? null },
      todayIn(company.timeZone),
    );
    if (!terms) throw validationFailed(errors);
    const id = newUuid();
    const record = newInvoice({
      externalId: document.externalId,
      customerId: customer.id,
      invoiceNumber: p.invoice_number ?? null,
      additionalNumber: p.additional_number ?? null,
      total: p.amount,
      net: money(p.net),
      vat7: money(p.vat7),
      vat19: money(p.vat19),
      orderDate: p.order_date ?? null,
      supply: pushedSupply(p),
      ...terms,
      source: 'PUSH',
    });
    const pushed = p.pdf ? Buffer.from(p.pdf, 'base64') : undefined;
    const pdfActiveContent = pushed ? await this.activeContentOf(ctx, pushed) : false;
    const rendered = pushed ? null : await this.render(ctx, customer, { ...record, companyId: company.id, id } as Invoice);
    const pdf = await this.store(ctx, id, pushed ?? rendered!, !pushed);
    const { autosend, autoskip } = resolveRelease(p.options, await this.companies.findById(company.id, manager));
    const invoice = await this.ledger.create(
      company.id,
      id,
      { ...record, shippingMode: autoskip ? 'skip_shipping' : (p.shipping_mode ?? null), ...pdf, pdfActiveContent },
      manager,
    );
    await this.invoices.addEvent(
      invoice,
      actor,
      { kind: 'created', toStatus: 'draft', details: { push_document: `doc-${document.id}` } },
      manager,
    );
    const notes: string[] = [];
    return { invoice: await this.release(ctx, invoice, autoskip, autosend, notes), changed: true, notes };
  }

  /** Only what the document changes; fields a sent invoice may no longer change make the document fail. */
  private async update(
    ctx: ProcessContext,
    found: Invoice,
    customer: Customer,
    customerChanged: boolean,
    p: InvoicePayload,
  ): Promise<Applied> {
    const { company, manager, actor, document } = ctx;
    const locked = (await this.invoices.lockById(company.id, found.id, manager)) ?? found;
    if (locked.customerId !== customer.id) {
      throw new AppError(
        'invoice.not_editable',
        `Invoice "${document.externalId}" belongs to another customer; the customer of an invoice does not change`,
      );
    }
    const draft = locked.status === 'draft';
    const notes: string[] = [];
    const given = (key: keyof InvoicePayload) => Object.prototype.hasOwnProperty.call(p, key);
    const current: Record<Field, string | null> = {
      invoice_number: locked.invoiceNumber,
      additional_number: locked.additionalNumber,
      net: money(locked.net),
      vat7: money(locked.vat7),
      vat19: money(locked.vat19),
      order_date: locked.orderDate,
      shipping_mode: locked.shippingMode,
      total: money(locked.originalTotal),
    };
    const wanted: Record<Field, string | null> = { ...current, total: money(p.amount) };
    for (const field of ['invoice_number', 'additional_number', 'order_date', 'shipping_mode'] as const)
      if (given(field)) wanted[field] = p[field] ?? null;
    for (const field of ['net', 'vat7', 'vat19'] as const) if (given(field)) wanted[field] = money(p[field]);
    if (draft && p.options?.autoskip_shipping) wanted.shipping_mode = 'skip_shipping';
    const changedFields: string[] = FIELDS.filter((field) => wanted[field] !== current[field]);
    const { supply, changed: supplyChanged } = changedSupply(locked.supply, p, { ...wanted, total: p.amount });
    changedFields.push(...supplyChanged);

    let terms = {};
    if (p.invoice_date != null || p.due_date != null || p.time_for_payment != null) {
      const resolved = resolveTerms(
        {
          invoiceDate: p.invoice_date ?? locked.invoiceDate,
          dueDate: p.due_date ?? null,
          timeForPayment: p.due_date ? null : (p.time_for_payment ?? locked.timeForPayment),
        },
        todayIn(company.timeZone),
      );
      if (!resolved.terms) throw validationFailed(resolved.errors);
      terms = resolved.terms;
      if (resolved.terms.invoiceDate !== locked.invoiceDate) changedFields.push('invoice_date');
      if (resolved.terms.dueDate !== locked.dueDate) changedFields.push('due_date');
    }
    assertEditable(locked.status, changedFields);

    const pushedPdf = p.pdf ? Buffer.from(p.pdf, 'base64') : undefined;
    const newPdf = pushedPdf !== undefined && !locked.pdfSha256?.equals(sha256(pushedPdf));
    if (newPdf && !draft)
      notes.push(`pdf: kept the PDF the invoice was released with (status ${locked.status}); a pushed PDF replaces only a draft's`);
    const rerender = !pushedPdf && draft && isRenderedKey(locked.pdfKey) && (changedFields.length > 0 || customerChanged);
    const release = draft && (p.options?.autoskip_shipping === true || p.options?.autosend === true);
    if (changedFields.length === 0 && !(newPdf && draft) && !rerender && !release) return { invoice: locked, changed: false, notes };

    const changes: Partial<Invoice> = {
      invoiceNumber: wanted.invoice_number,
      additionalNumber: wanted.additional_number,
      net: wanted.net,
      vat7: wanted.vat7,
      vat19: wanted.vat19,
      orderDate: wanted.order_date,
      supply,
      shippingMode: wanted.shipping_mode as Invoice['shippingMode'],
      ...(changedFields.includes('total') ? moneyFields({ ...moneyStateOf(locked), originalTotal: p.amount }) : {}),
      ...(changedFields.includes('invoice_date') || changedFields.includes('due_date') ? terms : {}),
    };
    if (newPdf && draft) {
      const pdfActiveContent = await this.activeContentOf(ctx, pushedPdf);
      Object.assign(changes, await this.store(ctx, locked.id, pushedPdf, false, locked.pdfKey), { pdfActiveContent });
      changedFields.push('pdf');
    } else if (rerender) {
      const pdf = await this.render(ctx, customer, { ...locked, ...changes });
      Object.assign(changes, await this.store(ctx, locked.id, pdf, true, locked.pdfKey), { pdfActiveContent: false });
      changedFields.push('pdf');
    }
    let updated = await this.invoices.update(locked, changes, manager);
    if (changedFields.length > 0) {
      await this.invoices.addEvent(
        locked,
        actor,
        { kind: 'updated', details: { fields: changedFields, push_document: `doc-${document.id}` } },
        manager,
      );
    }
    // A lowered total that the payments so far already cover settles the invoice, as PATCH does.
    if (
      changes.openAmount !== undefined &&
      new Decimal(locked.paidAmount).greaterThan(0) &&
      isSettled({ openAmount: changes.openAmount }) &&
      canApply('settle', updated.status)
    ) {
      updated = await this.transitions.apply(manager, updated, 'settle', actor, 'total changed: covered by the payments');
    }
    if (release) updated = await this.release(ctx, updated, p.options?.autoskip_shipping === true, p.options?.autosend === true, notes);
    return { invoice: updated, changed: true, notes };
  }

  /**
   * autoskip: the client ships it, it enters the cycle as sent; autosend: shipped now through
   * ShippingService (deliveries enqueued in this transaction; sent once they succeeded; one that cannot
   * go out stays a draft and is flagged for attention). The same rules as POST /api/v1/invoices.
   */
  private async release(ctx: ProcessContext, invoice: Invoice, autoskip: boolean, autosend: boolean, notes: string[]): Promise<Invoice> {
    if (!autoskip && !autosend) return invoice;
    assertReleasable(invoice);
    if (autoskip)
      return this.transitions.apply(ctx.manager, invoice, 'release', ctx.actor, 'options[autoskip_shipping]: shipped by the client');
    try {
      return await this.shipping.shipInvoice(ctx.manager, invoice, ctx.actor, { reason: 'options[autosend]', unroutable: 'flag' });
    } catch (error) {
      // A shipment of this draft is under way already (an earlier version asked for autosend too).
      if (!(error instanceof AppError && error.code === 'shipping.in_progress')) throw error;
      notes.push('options[autosend]: the invoice is being shipped already');
      return invoice;
    }
  }

  /**
   * Whether a pushed PDF has active content; refused (dead-lettered, nothing stored) when the company
   * refuses such PDFs: intake asked already, but the setting may have changed or a dead letter been replayed.
   */
  private async activeContentOf(ctx: ProcessContext, pdf: Buffer): Promise<boolean> {
    const activeContent = await inspectPdfBytes(pdf);
    await this.activePdf.assertAccepted(ctx.company.id, [{ field: 'pdf', activeContent }], ctx.manager);
    return activeContent !== null;
  }

  private async render(ctx: ProcessContext, customer: Customer, invoice: Invoice): Promise<Buffer> {
    const settings = await this.shippingSettings.forLetters(ctx.company.id, ctx.manager);
    return renderFor({ companyName: ctx.company.name, settings, invoice, customer, contact: null }, todayIn(ctx.company.timeZone));
  }

  /** Stores a new version of the invoice PDF under a key of its own; the replaced one goes after the commit. */
  private async store(
    ctx: ProcessContext,
    invoiceId: string,
    pdf: Buffer,
    rendered: boolean,
    replaces: string | null = null,
  ): Promise<StoredPdf> {
    const key = pdfKeyFor(ctx.company.id, invoiceId, rendered);
    ctx.files.written.push(key);
    await this.documents.putBuffer(key, pdf, 'application/pdf');
    if (replaces) ctx.files.obsolete.push(replaces);
    return { pdfKey: key, pdfSize: String(pdf.length), pdfSha256: sha256(pdf) };
  }
}
