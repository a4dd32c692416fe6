// What the service renders for an invoice that has no PDF of its own, decided here and nowhere else.
// A document titled as an invoice must carry what § 14 (4) UStG requires: the seller's and the buyer's
// name and address (Nr. 1), the seller's tax number or VAT ID (Nr. 2), the date (Nr. 3), an invoice
// number (Nr. 4), what was supplied (Nr. 5), when (Nr. 6), net amounts and VAT per rate (Nr. 7, 8).
// (a) With all of it at hand (a pushed invoice with line items and a delivery date, the company's
//     address and tax number or VAT ID in the settings) the service renders the complete invoice.
// (b) An ERP item whose connection fetches billing documents has the ERP's own PDF (erp-invoice-pdfs.ts
//     stores it before anything is rendered), so it never reaches this decision.
// (c) Otherwise a "Zahlungsaufforderung / Rechnungskopie" that refers to the original invoice and does
//     not pose as it: no invoice title and no VAT shown, since a document that shows VAT is treated as
//     an invoice and the tax it shows is owed again (§ 14c UStG).
import { supplyProblems } from '../../invoices/invoice-supply.js';
import { LABEL } from '../../letters/messages.de.js';
import type { ShippingSettings } from '../settings/shipping-settings.js';
import type { LetterParties } from './letter-content.js';

export type InvoiceDocumentKind = 'invoice' | 'payment_request';

export interface InvoiceDocumentDecision {
  kind: InvoiceDocumentKind;
  /** Why it is not a complete invoice (empty for one). */
  missing: string[];
}

/** The seller's tax number or VAT ID as the invoice prints it (§ 14 (4) Nr. 2 UStG: either suffices). */
export function sellerTaxIdOf(settings: ShippingSettings): { label: string; value: string } | null {
  if (settings.vatId?.trim()) return { label: LABEL.vatId, value: settings.vatId.trim() };
  if (settings.taxNumber?.trim()) return { label: LABEL.taxNumber, value: settings.taxNumber.trim() };
  return null;
}

/**
 * What the invoice's PDF is: its own (uploaded, pushed, the ERP's), or what the service renders for it
 * (at shipping, or at a push without a PDF) — the attachment's name, the e-mail's text and the cover
 * page follow from it.
 */
export function invoicePdfKind(parties: LetterParties): InvoiceDocumentKind | 'own' {
  const key = parties.invoice.pdfKey;
  return key === null || /\/rendered-[^/]*\.pdf$/.test(key) ? invoiceDocumentKind(parties).kind : 'own';
}

export function invoiceDocumentKind(parties: LetterParties): InvoiceDocumentDecision {
  const { invoice, customer, settings } = parties;
  const missing: string[] = [];
  if (!settings.senderStreet?.trim() || !settings.senderZip?.trim() || !settings.senderCity?.trim())
    missing.push("the company's address (sender street, postal code and city)");
  if (!sellerTaxIdOf(settings)) missing.push("the company's VAT ID or tax number");
  if (![customer.addressLine1, customer.addressLine2].some((line) => line?.trim()) || !customer.zip?.trim() || !customer.city?.trim())
    missing.push("the customer's address");
  if (!invoice.invoiceNumber) missing.push('an invoice number');
  if (!invoice.invoiceDate) missing.push('an invoice date');
  const supply = invoice.supply;
  if (!supply || supply.items.length === 0) missing.push('line items');
  if (!supply?.deliveryDate) missing.push('a delivery date');
  if (supply && supply.items.length > 0) {
    const amounts = { net: invoice.net, vat7: invoice.vat7, vat19: invoice.vat19, total: invoice.originalTotal };
    missing.push(...supplyProblems(supply, amounts).map((problem) => problem.message));
  }
  return { kind: missing.length === 0 ? 'invoice' : 'payment_request', missing };
}
