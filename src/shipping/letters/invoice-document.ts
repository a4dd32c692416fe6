// The document the service renders for an invoice without a PDF of its own (a pushed invoice without
// `pdf`, an ERP item): a complete invoice or a payment request referring to the original, as
// invoice-kind.ts decides. DIN 5008 letters from the company's sender, bank and legal settings.
import { Decimal } from '../../common/money.js';
import type { SupplyItem } from '../../invoices/invoice-supply.js';
import { formatAmountDe, formatDateDe, formatEuroDe } from '../../letters/german-format.js';
import type { AmountRow, LetterContent } from '../../letters/letter.js';
import { INVOICE, LABEL, LETTER, PAYMENT_REQUEST } from '../../letters/messages.de.js';
import { greetingOf } from '../routing/recipients.js';
import { invoiceDocumentKind, sellerTaxIdOf } from './invoice-kind.js';
import { frame, invoiceNumberOf, type LetterParties, paymentInstruction } from './letter-content.js';

/** `today`: the date the document is made (in the company's time zone). */
export function renderedInvoice(parties: LetterParties, today: string): LetterContent {
  return invoiceDocumentKind(parties).kind === 'invoice' ? completeInvoice(parties) : paymentRequest(parties, today);
}

/** (a) The invoice with everything § 14 (4) UStG asks for (invoice-kind.ts checked it is all there). */
function completeInvoice(parties: LetterParties): LetterContent {
  const { invoice, customer, settings } = parties;
  const supply = invoice.supply!;
  const number = invoiceNumberOf(invoice);
  const total = new Decimal(invoice.originalTotal);
  const taxId = sellerTaxIdOf(settings)!;
  const lineRows: AmountRow[] = supply.items.map((item, i) => ({
    label: INVOICE.itemRow(i + 1, item.vatRate),
    amount: formatEuroDe(item.netAmount),
  }));
  const rateRows = ([19, 7] as const).flatMap((rate) => {
    const items = supply.items.filter((item) => item.vatRate === rate);
    if (items.length === 0) return [];
    const net = items.reduce((sum, item) => sum.plus(item.netAmount), new Decimal(0));
    const vat = (rate === 7 ? invoice.vat7 : invoice.vat19) ?? '0';
    return [
      { label: INVOICE.netAtRate(rate), amount: formatEuroDe(net) },
      { label: INVOICE.vatAtRate(rate, formatEuroDe(net)), amount: formatEuroDe(vat) },
    ];
  });
  const delivery = supply.deliveryEndDate
    ? { label: LABEL.deliveryPeriod, value: `${formatDateDe(supply.deliveryDate)} – ${formatDateDe(supply.deliveryEndDate)}` }
    : { label: LABEL.deliveryDate, value: formatDateDe(supply.deliveryDate) };
  return {
    ...frame(parties),
    title: LETTER.invoiceSubject(number),
    info: [
      ...(customer.customerNumber ? [{ label: LABEL.customerNumber, value: customer.customerNumber }] : []),
      { label: LABEL.invoiceNumber, value: number },
      { label: LABEL.invoiceDate, value: formatDateDe(invoice.invoiceDate) },
      delivery,
      ...(invoice.dueDate ? [{ label: LABEL.dueOn, value: formatDateDe(invoice.dueDate) }] : []),
      ...(invoice.additionalNumber ? [{ label: LABEL.reference, value: invoice.additionalNumber }] : []),
      ...(invoice.orderDate ? [{ label: LABEL.orderDate, value: formatDateDe(invoice.orderDate) }] : []),
      taxId,
    ],
    subject: LETTER.invoiceSubject(number),
    salutation: `${greetingOf(parties.contact)},`,
    paragraphs: [INVOICE.intro, supply.items.map((item, i) => INVOICE.item(i + 1, itemText(item))).join('\n')],
    amounts: [...lineRows, ...rateRows, { label: LABEL.invoiceAmount, amount: formatEuroDe(total), total: true }],
    closingParagraphs: invoice.dueDate ? [paymentInstruction(settings, total, formatDateDe(invoice.dueDate), number)] : [],
    closing: LETTER.closing,
  };
}

/** "Beratung, 2,00 Std. à 100,00 €" */
function itemText(item: SupplyItem): string {
  const quantity = item.quantity !== null ? `${formatAmountDe(item.quantity)}${item.unit ? ` ${item.unit}` : ''}` : null;
  const price = item.unitPrice !== null ? INVOICE.unitPrice(formatEuroDe(item.unitPrice)) : null;
  const detail = [quantity, price].filter(Boolean).join(' ');
  return detail ? `${item.description}, ${detail}` : item.description;
}

/**
 * (c) A request to pay the original invoice, named by number and date: not titled as an invoice and
 * without VAT amounts, so it cannot be taken for one (§ 14c UStG, see invoice-kind.ts).
 */
function paymentRequest(parties: LetterParties, today: string): LetterContent {
  const { invoice, customer, settings } = parties;
  const number = invoiceNumberOf(invoice);
  const total = new Decimal(invoice.originalTotal);
  const paid = new Decimal(invoice.paidAmount);
  const open = new Decimal(invoice.openAmount);
  const amounts: AmountRow[] = [
    { label: PAYMENT_REQUEST.invoice(number, invoice.invoiceDate), amount: formatEuroDe(total) },
    ...(paid.greaterThan(0) ? [{ label: LABEL.payments, amount: formatEuroDe(paid.negated()) }] : []),
    { label: LABEL.toPay, amount: formatEuroDe(open), total: true },
  ];
  return {
    ...frame(parties),
    title: PAYMENT_REQUEST.title(number),
    info: [
      ...(customer.customerNumber ? [{ label: LABEL.customerNumber, value: customer.customerNumber }] : []),
      { label: LABEL.invoiceNumber, value: number },
      ...(invoice.invoiceDate ? [{ label: LABEL.invoiceDate, value: formatDateDe(invoice.invoiceDate) }] : []),
      ...(invoice.dueDate ? [{ label: LABEL.dueOn, value: formatDateDe(invoice.dueDate) }] : []),
      ...(invoice.additionalNumber ? [{ label: LABEL.reference, value: invoice.additionalNumber }] : []),
      ...(invoice.orderDate ? [{ label: LABEL.orderDate, value: formatDateDe(invoice.orderDate) }] : []),
      { label: LABEL.date, value: formatDateDe(today) },
    ],
    subject: PAYMENT_REQUEST.subject(number),
    salutation: `${greetingOf(parties.contact)},`,
    paragraphs: [PAYMENT_REQUEST.request(number, invoice.invoiceDate), PAYMENT_REQUEST.notAnInvoice(number, invoice.invoiceDate)],
    amounts,
    closingParagraphs: invoice.dueDate
      ? [paymentInstruction(settings, open, formatDateDe(invoice.dueDate), number), LETTER.crossedPayment]
      : [LETTER.crossedPayment],
    closing: LETTER.closing,
  };
}
