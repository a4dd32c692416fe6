// The document the service renders for an invoice without a PDF of its own (a pushed invoice without
// `pdf`, an ERP item): a complete invoice or a payment request referring to the original, as
// invoice-kind.ts decides. DIN 5008 letters from the company's sender, bank and legal settings.
import { Decimal } from '../../common/money.js';
import type { SupplyItem } from '../../invoices/invoice-supply.js';
import { formatAmountDe, formatDateDe, formatEuroDe } from '../../letters/german-format.js';
import type { AmountRow, LetterContent } from '../../letters/letter.js';
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
    label: `Pos. ${i + 1} (USt. ${item.vatRate} %)`,
    amount: formatEuroDe(item.netAmount),
  }));
  const rateRows = ([19, 7] as const).flatMap((rate) => {
    const items = supply.items.filter((item) => item.vatRate === rate);
    if (items.length === 0) return [];
    const net = items.reduce((sum, item) => sum.plus(item.netAmount), new Decimal(0));
    const vat = (rate === 7 ? invoice.vat7 : invoice.vat19) ?? '0';
    return [
      { label: `Nettobetrag zu ${rate} %`, amount: formatEuroDe(net) },
      { label: `zzgl. USt. ${rate} % auf ${formatEuroDe(net)}`, amount: formatEuroDe(vat) },
    ];
  });
  const delivery = supply.deliveryEndDate
    ? { label: 'Leistungszeitraum', value: `${formatDateDe(supply.deliveryDate)} – ${formatDateDe(supply.deliveryEndDate)}` }
    : { label: 'Leistungsdatum', value: formatDateDe(supply.deliveryDate) };
  return {
    ...frame(parties),
    title: `Rechnung ${number}`,
    info: [
      ...(customer.customerNumber ? [{ label: 'Kundennummer', value: customer.customerNumber }] : []),
      { label: 'Rechnungsnummer', value: number },
      { label: 'Rechnungsdatum', value: formatDateDe(invoice.invoiceDate) },
      delivery,
      ...(invoice.dueDate ? [{ label: 'Fällig am', value: formatDateDe(invoice.dueDate) }] : []),
      ...(invoice.additionalNumber ? [{ label: 'Ihre Referenz', value: invoice.additionalNumber }] : []),
      ...(invoice.orderDate ? [{ label: 'Auftragsdatum', value: formatDateDe(invoice.orderDate) }] : []),
      taxId,
    ],
    subject: `Rechnung ${number}`,
    salutation: `${greetingOf(parties.contact)},`,
    paragraphs: [
      'für unsere Lieferungen und Leistungen berechnen wir Ihnen:',
      supply.items.map((item, i) => `Pos. ${i + 1}: ${itemText(item)}`).join('\n'),
    ],
    amounts: [...lineRows, ...rateRows, { label: 'Rechnungsbetrag', amount: formatEuroDe(total), total: true }],
    closingParagraphs: invoice.dueDate ? [paymentInstruction(settings, total, formatDateDe(invoice.dueDate), number)] : [],
    closing: 'Mit freundlichen Grüßen',
  };
}

/** "Beratung, 2,00 Std. à 100,00 €" */
function itemText(item: SupplyItem): string {
  const quantity = item.quantity !== null ? `${formatAmountDe(item.quantity)}${item.unit ? ` ${item.unit}` : ''}` : null;
  const price = item.unitPrice !== null ? `à ${formatEuroDe(item.unitPrice)}` : null;
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
  const dated = invoice.invoiceDate ? ` vom ${formatDateDe(invoice.invoiceDate)}` : '';
  const total = new Decimal(invoice.originalTotal);
  const paid = new Decimal(invoice.paidAmount);
  const open = new Decimal(invoice.openAmount);
  const amounts: AmountRow[] = [
    { label: `Rechnung Nr. ${number}${dated}`, amount: formatEuroDe(total) },
    ...(paid.greaterThan(0) ? [{ label: 'abzüglich Zahlungen', amount: formatEuroDe(paid.negated()) }] : []),
    { label: 'Zu zahlender Betrag', amount: formatEuroDe(open), total: true },
  ];
  return {
    ...frame(parties),
    title: `Zahlungsaufforderung zur Rechnung ${number}`,
    info: [
      ...(customer.customerNumber ? [{ label: 'Kundennummer', value: customer.customerNumber }] : []),
      { label: 'Rechnungsnummer', value: number },
      ...(invoice.invoiceDate ? [{ label: 'Rechnungsdatum', value: formatDateDe(invoice.invoiceDate) }] : []),
      ...(invoice.dueDate ? [{ label: 'Fällig am', value: formatDateDe(invoice.dueDate) }] : []),
      ...(invoice.additionalNumber ? [{ label: 'Ihre Referenz', value: invoice.additionalNumber }] : []),
      ...(invoice.orderDate ? [{ label: 'Auftragsdatum', value: formatDateDe(invoice.orderDate) }] : []),
      { label: 'Datum', value: formatDateDe(today) },
    ],
    subject: `Zahlungsaufforderung / Rechnungskopie zur Rechnung Nr. ${number}`,
    salutation: `${greetingOf(parties.contact)},`,
    paragraphs: [
      `wir bitten Sie, den folgenden Betrag aus unserer Rechnung Nr. ${number}${dated} zu begleichen.`,
      `Dieses Schreiben ersetzt die Rechnung nicht. Maßgeblich ist unsere Rechnung Nr. ${number}${dated}; ` +
        'sie allein weist die Umsatzsteuer aus und berechtigt zum Vorsteuerabzug. Gern senden wir Ihnen auf Anfrage eine weitere Ausfertigung.',
    ],
    amounts,
    closingParagraphs: invoice.dueDate
      ? [
          paymentInstruction(settings, open, formatDateDe(invoice.dueDate), number),
          'Sollte sich Ihre Zahlung mit diesem Schreiben überschnitten haben, betrachten Sie es bitte als gegenstandslos.',
        ]
      : ['Sollte sich Ihre Zahlung mit diesem Schreiben überschnitten haben, betrachten Sie es bitte als gegenstandslos.'],
    closing: 'Mit freundlichen Grüßen',
  };
}
