// Renders an invoice PDF from a pushed invoice's fields, for documents that carry no PDF of their own.
// One A4 page: sender, recipient address, numbers and dates, the amount due.
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { Decimal } from '../common/money.js';

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

/** The standard fonts speak WinAnsi: Latin-1 and € stay, anything else becomes "?". */
const winAnsi = (text: string): string => text.replace(/[^\x20-\x7e\xa0-\xff€„“”‚‘’–—…]/g, '?');

const german = (iso: string): string => iso.split('-').reverse().join('.');

/** 11900.5 → "11.900,50", as a German invoice shows an amount. */
const euro = (amount: string): string => {
  const [whole, cents] = new Decimal(amount).toFixed(2).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${cents}`;
};

export async function renderInvoicePdf(fields: InvoicePdfFields): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(winAnsi(`Rechnung ${fields.invoiceNumber ?? fields.externalId}`));
  pdf.setProducer('Receivables service');
  const page = pdf.addPage([595.28, 841.89]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let y = 780;
  const line = (text: string, size = 11, font = regular, x = 56) => {
    page.drawText(winAnsi(text), { x, y, size, font, color: rgb(0.1, 0.1, 0.1) });
    y -= size + 6;
  };
  line(fields.companyName, 9);
  y -= 30;
  for (const part of fields.customerAddress.split('\n')) line(part);
  y -= 40;
  line(`Rechnung ${fields.invoiceNumber ?? fields.externalId}`, 18, bold);
  y -= 10;
  line(`Rechnungsdatum: ${german(fields.invoiceDate)}`);
  if (fields.orderDate) line(`Auftragsdatum: ${german(fields.orderDate)}`);
  line(`Fällig am: ${german(fields.dueDate)}`);
  line(`Ihre Referenz: ${fields.externalId}`);
  y -= 30;
  line(`Rechnungsbetrag: ${euro(fields.total)} EUR`, 14, bold);
  y -= 20;
  line(`Bitte überweisen Sie den Betrag bis zum ${german(fields.dueDate)}.`);
  return Buffer.from(await pdf.save());
}
