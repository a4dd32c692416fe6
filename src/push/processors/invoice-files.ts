// The PDF of a pushed invoice in the document store. Every version of the file gets a key of its own,
// so stored bytes are never overwritten: the record switches keys in its transaction, and the old file
// goes only after the commit. A PDF the service rendered (the document carried none) says so in its
// key, so that a changed draft gets its PDF rendered again while a client's PDF is never replaced by one.
import { createHash } from 'node:crypto';
import { newUuid } from '../../common/ids.js';
import { composeAddress } from '../../customers/address.js';
import type { Customer } from '../../customers/customer.entity.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import { renderInvoicePdf } from '../invoice-pdf.js';

export interface StoredPdf {
  pdfKey: string;
  pdfSize: string;
  pdfSha256: Buffer;
}

export const sha256 = (bytes: Buffer): Buffer => createHash('sha256').update(bytes).digest();

export function pdfKeyFor(companyId: string, invoiceId: string, rendered: boolean): string {
  return `${companyId}/invoices/${invoiceId}/${rendered ? 'rendered' : 'invoice'}-${newUuid()}.pdf`;
}

export function isRenderedKey(key: string | null): boolean {
  return key !== null && /\/rendered-[0-9a-f-]{36}\.pdf$/.test(key);
}

/** The invoice as it will be stored, rendered onto one page with the company name and the customer's address. */
export function renderFor(
  companyName: string,
  customer: Customer,
  invoice: Pick<Invoice, 'invoiceNumber' | 'invoiceDate' | 'dueDate' | 'orderDate' | 'originalTotal'>,
  externalId: string,
): Promise<Buffer> {
  return renderInvoicePdf({
    companyName,
    customerAddress: composeAddress(customer),
    invoiceNumber: invoice.invoiceNumber,
    externalId,
    invoiceDate: invoice.invoiceDate!,
    dueDate: invoice.dueDate!,
    orderDate: invoice.orderDate,
    total: invoice.originalTotal,
  });
}
