// Renders an invoice PDF from a pushed invoice's fields, for documents that carry no PDF of their own:
// a DIN 5008 letter (the address shows through the envelope window) with the numbers, dates and amount.
import { formatDateDe, formatEuroDe } from './german-format.js';
import type { LetterContent } from './letter.js';
import { renderLetter } from './letter-renderer.js';

export interface InvoicePdfFields {
  companyName: string;
  customerAddress: string;
  invoiceNumber: string | null;
  externalId: string;
  invoiceDate: string;
  dueDate: string;
  orderDate: string | null;
  total: string;
}

export async function renderInvoicePdf(fields: InvoicePdfFields): Promise<Buffer> {
  return Buffer.from(await renderLetter(invoicePdfContent(fields)));
}

export function invoicePdfContent(fields: InvoicePdfFields): LetterContent {
  const number = fields.invoiceNumber ?? fields.externalId;
  const total = formatEuroDe(fields.total);
  return {
    title: `Rechnung ${number}`,
    sender: { name: fields.companyName, address: [], contact: [], bank: [], legal: [] },
    returnAddress: fields.companyName,
    recipient: fields.customerAddress.split('\n').filter((line) => line.trim()),
    info: [
      { label: 'Rechnungsnummer', value: number },
      { label: 'Ihre Referenz', value: fields.externalId },
      ...(fields.orderDate ? [{ label: 'Auftragsdatum', value: formatDateDe(fields.orderDate) }] : []),
      { label: 'Fällig am', value: formatDateDe(fields.dueDate) },
      { label: 'Datum', value: formatDateDe(fields.invoiceDate) },
    ],
    subject: `Rechnung ${number}`,
    salutation: 'Sehr geehrte Damen und Herren,',
    paragraphs: ['hiermit stellen wir Ihnen den folgenden Betrag in Rechnung.'],
    amounts: [{ label: 'Rechnungsbetrag', amount: total, total: true }],
    closingParagraphs: [
      `Bitte überweisen Sie den Betrag bis zum ${formatDateDe(fields.dueDate)}. Geben Sie als Verwendungszweck bitte ${number} an.`,
    ],
    closing: 'Mit freundlichen Grüßen',
    signature: fields.companyName,
  };
}
