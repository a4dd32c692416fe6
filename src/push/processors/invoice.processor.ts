// Invoice documents: create the invoice with the document's external_id, or update it. The customer is
// the one with customer_external_id (created or updated from a nested `customer` when given). A new
// invoice gets the pushed PDF, or one rendered from its fields; it starts as a draft and is released
// on creation as the options or the company settings say (as POST /api/v1/invoices does).
import { Injectable } from '@nestjs/common';
import { CompaniesRepository } from '../../companies/companies.repository.js';
import { todayIn } from '../../common/calendar-date.js';
import { AppError, validationFailed } from '../../common/errors.js';
import { Decimal } from '../../common/money.js';
import { createHash } from 'node:crypto';
import { newUuid } from '../../common/ids.js';
import { composeAddress } from '../../customers/address.js';
import type { Customer } from '../../customers/customer.entity.js';
import { CustomersRepository } from '../../customers/customers.repository.js';
import { DocumentStore } from '../../documents/document-store.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import { moneyFields } from '../../invoices/invoice-money.js';
import { assertEditable, assertReleasable } from '../../invoices/invoice-rules.js';
import { resolveTerms } from '../../invoices/invoice-terms.js';
import { InvoiceTransitions } from '../../invoices/invoice-transitions.js';
import { InvoicesRepository } from '../../invoices/invoices.repository.js';
import type { InvoicePayload } from '../dto/push-document.dto.js';
import { renderInvoicePdf } from '../invoice-pdf.js';
import { CustomerProcessor } from './customer.processor.js';
import type { DocumentProcessor, ProcessContext, ProcessResult } from './processor.js';

const money = (value: string | null | undefined) => (value === undefined ? undefined : value === null ? null : new Decimal(value).toFixed(2));

@Injectable()
export class InvoiceProcessor implements DocumentProcessor {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly customers: CustomersRepository,
    private readonly customerProcessor: CustomerProcessor,
    private readonly transitions: InvoiceTransitions,
    private readonly companies: CompaniesRepository,
    private readonly documents: DocumentStore,
  ) {}

  async apply(ctx: ProcessContext): Promise<ProcessResult> {
    const { company, document, manager } = ctx;
    const p = document.payload as unknown as InvoicePayload;
    const customer = p.customer
      ? (await this.customerProcessor.upsert(company.id, p.customer_external_id, p.customer, manager)).customer
      : await this.customers.findByExternalId(company.id, p.customer_external_id, manager);
    if (!customer) {
      throw new AppError('customer.not_found', `No customer with external_id "${p.customer_external_id}" (yet): push the customer first, or send its fields as customer`);
    }
    const existing = await this.invoices.findByExternalId(company.id, document.externalId, manager);
    const invoice = existing ? await this.update(ctx, existing, customer, p) : await this.create(ctx, customer, p);
    return { outcome: invoice.changed ? 'applied' : 'unchanged', result: { type: 'invoice', id: invoice.invoice.id } };
  }

  private async create(ctx: ProcessContext, customer: Customer, p: InvoicePayload): Promise<{ invoice: Invoice; changed: boolean }> {
    const { company, document, manager, actor } = ctx;
    const { terms, errors } = resolveTerms(
      { invoiceDate: p.invoice_date ?? null, dueDate: p.due_date ?? null, timeForPayment: p.time_for_payment ?? null },
      todayIn(company.timeZone),
    );
    if (!terms) throw validationFailed(errors);
    const id = newUuid();
    const pdf = p.pdf
      ? Buffer.from(p.pdf, 'base64')
      : await renderInvoicePdf({
          companyName: company.name,
          customerAddress: composeAddress(customer),
          invoiceNumber: p.invoice_number ?? null,
          externalId: document.externalId,
          invoiceDate: terms.invoiceDate,
          dueDate: terms.dueDate,
          orderDate: p.order_date ?? null,
          total: p.amount,
        });
    const key = `${company.id}/invoices/${id}/invoice.pdf`;
    // The file goes first: should the transaction roll back, an unreferenced file is left, never a missing one.
    await this.documents.putBuffer(key, pdf, 'application/pdf');
    const settings = await this.companies.findById(company.id);
    const autoskip = p.options?.autoskip_shipping ?? settings?.autoskipShipping ?? false;
    const autosend = p.options?.autosend ?? settings?.autosend ?? false;
    let invoice = await this.invoices.insert(
      company.id,
      id,
      {
        externalId: document.externalId,
        customerId: customer.id,
        contactId: null,
        invoiceNumber: p.invoice_number ?? null,
        additionalNumber: p.additional_number ?? null,
        status: 'draft',
        statusBeforePaid: null,
        ...moneyFields({ originalTotal: p.amount, reminderFees: 0, paidAmount: 0 }),
        net: money(p.net) ?? null,
        vat7: money(p.vat7) ?? null,
        vat19: money(p.vat19) ?? null,
        orderDate: p.order_date ?? null,
        ...terms,
        source: 'PUSH',
        shippingMode: autoskip ? 'skip_shipping' : (p.shipping_mode ?? null),
        ignoreReminderFees: false,
        writtenOffAt: null,
        dunningBlockReason: null,
        dunningBlockUntil: null,
        pdfKey: key,
        pdfSize: String(pdf.length),
        pdfSha256: createHash('sha256').update(pdf).digest(),
        attachmentKey: null,
        attachmentSize: null,
        attachmentSha256: null,
      },
      manager,
    );
    await this.invoices.addEvent(invoice, actor, { kind: 'created', toStatus: 'draft', details: { push_document: `doc-${document.id}` } }, manager);
    if (autoskip || autosend) {
      assertReleasable(invoice);
      const reason = autoskip ? 'options[autoskip_shipping]: shipped by the client' : 'options[autosend]';
      invoice = await this.transitions.apply(manager, invoice, 'release', actor, reason);
    }
    return { invoice, changed: true };
  }

  /** Only what the document changes; fields a sent invoice may no longer change make the document fail. */
  private async update(ctx: ProcessContext, invoice: Invoice, customer: Customer, p: InvoicePayload): Promise<{ invoice: Invoice; changed: boolean }> {
    const { company, manager, actor, document } = ctx;
    const locked = (await this.invoices.lockById(company.id, invoice.id, manager)) ?? invoice;
    if (locked.customerId !== customer.id) {
      throw new AppError('invoice.not_editable', `Invoice "${document.externalId}" belongs to another customer; the customer of an invoice does not change`);
    }
    const wanted: Record<string, unknown> = {
      invoice_number: p.invoice_number ?? locked.invoiceNumber,
      additional_number: p.additional_number ?? locked.additionalNumber,
      net: money(p.net) ?? locked.net,
      vat7: money(p.vat7) ?? locked.vat7,
      vat19: money(p.vat19) ?? locked.vat19,
      order_date: p.order_date ?? locked.orderDate,
      shipping_mode: p.shipping_mode ?? locked.shippingMode,
      total: new Decimal(p.amount).toFixed(2),
    };
    const current: Record<string, unknown> = {
      invoice_number: locked.invoiceNumber,
      additional_number: locked.additionalNumber,
      net: locked.net && new Decimal(locked.net).toFixed(2),
      vat7: locked.vat7 && new Decimal(locked.vat7).toFixed(2),
      vat19: locked.vat19 && new Decimal(locked.vat19).toFixed(2),
      order_date: locked.orderDate,
      shipping_mode: locked.shippingMode,
      total: new Decimal(locked.originalTotal).toFixed(2),
    };
    const changedFields = Object.keys(wanted).filter((key) => wanted[key] !== current[key]);
    const termsGiven = p.invoice_date != null || p.due_date != null || p.time_for_payment != null;
    let terms = {};
    if (termsGiven) {
      const resolved = resolveTerms(
        { invoiceDate: p.invoice_date ?? locked.invoiceDate, dueDate: p.due_date ?? null, timeForPayment: p.due_date ? null : (p.time_for_payment ?? locked.timeForPayment) },
        todayIn(company.timeZone),
      );
      if (!resolved.terms) throw validationFailed(resolved.errors);
      const t = resolved.terms;
      if (t.invoiceDate !== locked.invoiceDate) changedFields.push('invoice_date');
      if (t.dueDate !== locked.dueDate) changedFields.push('due_date');
      terms = t;
    }
    if (changedFields.length === 0 && !p.pdf) return { invoice: locked, changed: false };
    assertEditable(locked.status, changedFields);
    const changes: Partial<Invoice> = {
      invoiceNumber: wanted.invoice_number as string | null,
      additionalNumber: wanted.additional_number as string | null,
      net: wanted.net as string | null,
      vat7: wanted.vat7 as string | null,
      vat19: wanted.vat19 as string | null,
      orderDate: wanted.order_date as string | null,
      shippingMode: wanted.shipping_mode as Invoice['shippingMode'],
      ...(changedFields.includes('total')
        ? moneyFields({ originalTotal: p.amount, reminderFees: locked.reminderFees, paidAmount: locked.paidAmount, waivedAmount: locked.waivedAmount })
        : {}),
      ...(changedFields.includes('invoice_date') || changedFields.includes('due_date') ? terms : {}),
    };
    if (p.pdf) {
      const pdf = Buffer.from(p.pdf, 'base64');
      const key = locked.pdfKey ?? `${company.id}/invoices/${locked.id}/invoice.pdf`;
      await this.documents.putBuffer(key, pdf, 'application/pdf');
      Object.assign(changes, { pdfKey: key, pdfSize: String(pdf.length), pdfSha256: createHash('sha256').update(pdf).digest() });
    }
    const updated = await this.invoices.update(locked, changes, manager);
    await this.invoices.addEvent(locked, actor, { kind: 'updated', details: { fields: changedFields, push_document: `doc-${document.id}` } }, manager);
    return { invoice: updated, changed: true };
  }
}
