// Moved to src/letters (shipping renders invoices without a PDF too); kept for the push processor's import.
export { type InvoicePdfFields, renderInvoicePdf } from '../letters/invoice-pdf.js';
