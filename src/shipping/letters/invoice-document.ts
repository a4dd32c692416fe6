// The invoice as the service renders it when it holds no PDF of it (an invoice pulled from the ERP): a
// DIN 5008 letter from the company's sender and bank settings — the address in the envelope window, the
// numbers and dates, net, VAT and gross amount, and how and until when to pay.
import { Decimal } from '../../common/money.js';
import { formatDateDe, formatEuroDe } from '../../letters/german-format.js';
import type { AmountRow, LetterContent } from '../../letters/letter.js';
import { frame, invoiceNumberOf, type LetterParties, paymentInstruction } from './letter-content.js';
import { greetingOf } from '../routing/recipients.js';

export function renderedInvoice(parties: LetterParties): LetterContent {
  const { invoice, customer, settings } = parties;
  const number = invoiceNumberOf(invoice);
  const total = new Decimal(invoice.originalTotal);
  const vatRows = [
    { label: 'USt. 7 %', value: invoice.vat7 },
    { label: 'USt. 19 %', value: invoice.vat19 },
  ].filter((row) => row.value !== null && !new Decimal(row.value).isZero());
  const amounts: AmountRow[] = [
    ...(invoice.net !== null ? [{ label: 'Nettobetrag', amount: formatEuroDe(invoice.net) }] : []),
    ...vatRows.map((row) => ({ label: row.label, amount: formatEuroDe(row.value as string) })),
    { label: 'Rechnungsbetrag', amount: formatEuroDe(total), total: true },
  ];
  const info = [
    ...(customer.customerNumber ? [{ label: 'Kundennummer', value: customer.customerNumber }] : []),
    { label: 'Rechnungsnummer', value: number },
    ...(invoice.additionalNumber ? [{ label: 'Ihre Referenz', value: invoice.additionalNumber }] : []),
    ...(invoice.orderDate ? [{ label: 'Auftragsdatum', value: formatDateDe(invoice.orderDate) }] : []),
    { label: 'Rechnungsdatum', value: formatDateDe(invoice.invoiceDate) },
    ...(invoice.dueDate ? [{ label: 'Fällig am', value: formatDateDe(invoice.dueDate) }] : []),
  ];
  return {
    ...frame(parties),
    title: `Rechnung ${number}`,
    info,
    subject: `Rechnung ${number}`,
    salutation: `${greetingOf(parties.contact)},`,
    paragraphs: ['hiermit stellen wir Ihnen den folgenden Betrag in Rechnung.'],
    amounts,
    closingParagraphs: invoice.dueDate ? [paymentInstruction(settings, total, formatDateDe(invoice.dueDate), number)] : [],
    closing: 'Mit freundlichen Grüßen',
  };
}
