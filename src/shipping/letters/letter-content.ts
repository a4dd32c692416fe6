// What the letters and e-mails of shipping say, built from the invoice, its parties and the company's
// settings: the reminder letter, the cover page of an invoice sent by post, and the template values.
import type { Contact } from '../../contacts/contact.entity.js';
import type { Customer } from '../../customers/customer.entity.js';
import { toPublicId } from '../../common/ids.js';
import { Decimal } from '../../common/money.js';
import { addDays } from '../../common/calendar-date.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import type { Reminder } from '../../invoices/reminder.entity.js';
import { formatAmountDe, formatDateDe, formatEuroDe } from '../../letters/german-format.js';
import type { AmountRow, LetterContent, LetterSender } from '../../letters/letter.js';
import { greetingOf } from '../routing/recipients.js';
import { legalLines } from '../settings/legal-details.js';
import { fillTemplate, type ShippingSettings, type TemplateValues } from '../settings/shipping-settings.js';

export interface LetterParties {
  companyName: string;
  settings: ShippingSettings;
  invoice: Invoice;
  customer: Customer;
  contact: Contact | null;
}

/** The reminder level's text and payment term (from the company's dunning policy). */
export interface ReminderTerms {
  text: string;
  paymentTermDays: number;
}

const countryNames = new Intl.DisplayNames(['de'], { type: 'region' });

/** The number a letter or e-mail names the invoice by. */
export function invoiceNumberOf(invoice: Invoice): string {
  return invoice.invoiceNumber ?? invoice.externalId ?? toPublicId('inv', invoice.id);
}

export function senderOf(companyName: string, settings: ShippingSettings): LetterSender & { returnAddress: string } {
  const name = settings.senderName ?? companyName;
  const cityLine = [settings.senderZip, settings.senderCity].filter(Boolean).join(' ');
  const address = [settings.senderStreet, cityLine].filter((line): line is string => Boolean(line));
  const contact = [settings.senderPhone && `Tel. ${settings.senderPhone}`, settings.senderEmail].filter((line): line is string =>
    Boolean(line),
  );
  const bank = [
    settings.bankAccountHolder,
    settings.bankIban && `IBAN ${groupIban(settings.bankIban)}`,
    settings.bankBic && `BIC ${settings.bankBic}`,
    settings.bankName,
  ].filter((line): line is string => Boolean(line));
  const legal = legalLines(name, settings);
  return { name, address, contact, bank, legal, returnAddress: [name, ...address].join(' · ') };
}

/** The window address: the customer's lines, postal code and city, and the country when it is abroad. */
export function recipientLines(customer: Customer, senderCountry: string): string[] {
  const lines = [
    customer.addressLine1,
    customer.addressLine2,
    customer.addressLine3,
    customer.addressLine4,
    `${customer.zip} ${customer.city}`,
  ]
    .map((line) => line?.trim())
    .filter((line): line is string => Boolean(line));
  const country = customer.countryCode.trim().toUpperCase();
  if (country && country !== senderCountry.toUpperCase()) lines.push((countryNames.of(country) ?? country).toUpperCase());
  return lines.slice(0, 6);
}

/** The reminder's charges are on the invoice once the reminder was dispatched; before that they are added here. */
function amountsOf(invoice: Invoice, reminder: Reminder | null) {
  const pending = reminder && !reminder.dispatchedAt;
  const pendingOf = (value: string | undefined) => (pending ? new Decimal(value ?? 0) : new Decimal(0));
  const fees = new Decimal(invoice.reminderFees).plus(pendingOf(reminder?.fees));
  const flatFee = new Decimal(invoice.flatFee ?? 0).plus(pendingOf(reminder?.flatFee));
  const interest = new Decimal(invoice.defaultInterest ?? 0).plus(pendingOf(reminder?.defaultInterest));
  const pendingAll = pendingOf(reminder?.fees).plus(pendingOf(reminder?.flatFee)).plus(pendingOf(reminder?.defaultInterest));
  return {
    principal: new Decimal(invoice.originalTotal),
    fees,
    flatFee,
    interest,
    paid: new Decimal(invoice.paidAmount),
    waived: new Decimal(invoice.waivedAmount ?? 0),
    open: new Decimal(invoice.openAmount).plus(pendingAll),
  };
}

export function payByOf(reminder: Reminder, terms: ReminderTerms): string {
  return addDays(reminder.reminderDate, terms.paymentTermDays);
}

export function reminderTitle(settings: ShippingSettings, reminder: Reminder): string {
  return settings.templates.reminderTitles[reminder.reminderStage - 1] ?? 'Mahnung';
}

/** Values for the templates (and the policy's reminder texts), formatted as the letter prints them. */
export function templateValues(
  parties: LetterParties,
  salutation: string,
  reminder: Reminder | null = null,
  terms: ReminderTerms | null = null,
): TemplateValues {
  const { invoice, customer, settings } = parties;
  const money = amountsOf(invoice, reminder);
  return {
    salutation,
    company_name: settings.senderName ?? parties.companyName,
    customer_name: customer.name,
    customer_number: customer.customerNumber ?? '',
    invoice_number: invoiceNumberOf(invoice),
    invoice_date: formatDateDe(invoice.invoiceDate),
    due_date: formatDateDe(invoice.dueDate),
    total: formatAmountDe(money.principal.plus(money.fees)),
    open_amount: formatAmountDe(money.open),
    fees: formatAmountDe(money.fees),
    ...(reminder && {
      reminder_title: reminderTitle(settings, reminder),
      reminder_stage: String(reminder.reminderStage),
      reminder_date: formatDateDe(reminder.reminderDate),
      pay_by: terms ? formatDateDe(payByOf(reminder, terms)) : '',
    }),
  };
}

export function paymentInstruction(settings: ShippingSettings, open: Decimal, payBy: string, number: string): string {
  const account = settings.bankIban
    ? ` auf unser Konto IBAN\u00a0${groupIban(settings.bankIban).replace(/ /g, '\u00a0')}${settings.bankBic ? `, BIC ${settings.bankBic}` : ''}${settings.bankName ? ` (${settings.bankName})` : ''}`
    : '';
  return `Bitte überweisen Sie den offenen Betrag von ${formatEuroDe(open)} bis zum ${payBy}${account}. Geben Sie als Verwendungszweck bitte ${number} an.`;
}

function infoBlock(parties: LetterParties, date: string) {
  const { customer, invoice } = parties;
  return [
    ...(customer.customerNumber ? [{ label: 'Kundennummer', value: customer.customerNumber }] : []),
    { label: 'Rechnungsnummer', value: invoiceNumberOf(invoice) },
    ...(invoice.invoiceDate ? [{ label: 'Rechnungsdatum', value: formatDateDe(invoice.invoiceDate) }] : []),
    ...(invoice.dueDate ? [{ label: 'Fällig am', value: formatDateDe(invoice.dueDate) }] : []),
    { label: 'Datum', value: date },
  ];
}

export function frame(parties: LetterParties) {
  const sender = senderOf(parties.companyName, parties.settings);
  return {
    sender,
    returnAddress: sender.returnAddress,
    recipient: recipientLines(parties.customer, parties.settings.senderCountryCode),
    signature: sender.name,
  };
}

/** The reminder letter (DIN 5008): the policy level's text, the amounts, and how and until when to pay. */
export function reminderLetter(parties: LetterParties, reminder: Reminder, terms: ReminderTerms): LetterContent {
  const { invoice, settings } = parties;
  const number = invoiceNumberOf(invoice);
  const salutation = greetingOf(parties.contact);
  const money = amountsOf(invoice, reminder);
  const title = reminderTitle(settings, reminder);
  const amounts: AmountRow[] = [
    {
      label: `Rechnung ${number}${invoice.invoiceDate ? ` vom ${formatDateDe(invoice.invoiceDate)}` : ''}`,
      amount: formatEuroDe(money.principal),
    },
    { label: 'Mahngebühren', amount: formatEuroDe(money.fees) },
    ...(money.flatFee.greaterThan(0) ? [{ label: 'Verzugspauschale (§ 288 Abs. 5 BGB)', amount: formatEuroDe(money.flatFee) }] : []),
    ...(money.interest.greaterThan(0) ? [{ label: 'Verzugszinsen (§ 288 BGB)', amount: formatEuroDe(money.interest) }] : []),
    ...(money.paid.greaterThan(0) ? [{ label: 'abzüglich Zahlungen', amount: formatEuroDe(money.paid.negated()) }] : []),
    ...(money.waived.greaterThan(0) ? [{ label: 'abzüglich erlassener Beträge', amount: formatEuroDe(money.waived.negated()) }] : []),
    { label: 'Offener Betrag', amount: formatEuroDe(money.open), total: true },
  ];
  return {
    ...frame(parties),
    title: `${title} ${number}`,
    info: infoBlock(parties, formatDateDe(reminder.reminderDate)),
    subject: `${title} zur Rechnung ${number}`,
    salutation: `${salutation},`,
    paragraphs: [fillTemplate(terms.text, templateValues(parties, salutation, reminder, terms))],
    amounts,
    closingParagraphs: [
      paymentInstruction(settings, money.open, formatDateDe(payByOf(reminder, terms)), number),
      'Sollten Sie die Zahlung zwischenzeitlich geleistet haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.',
    ],
    closing: 'Mit freundlichen Grüßen',
  };
}

/** The cover page put in front of an invoice sent by post, when the company's setting asks for one. */
export function coverLetter(parties: LetterParties, today: string): LetterContent {
  const { invoice, settings } = parties;
  const number = invoiceNumberOf(invoice);
  const salutation = greetingOf(parties.contact);
  const money = amountsOf(invoice, null);
  return {
    ...frame(parties),
    title: `Rechnung ${number}`,
    info: infoBlock(parties, formatDateDe(today)),
    subject: `Rechnung ${number}`,
    salutation: `${salutation},`,
    paragraphs: [fillTemplate(settings.templates.coverLetterText, templateValues(parties, salutation))],
    amounts: [{ label: 'Rechnungsbetrag', amount: formatEuroDe(money.principal.plus(money.fees)), total: true }],
    closingParagraphs: invoice.dueDate ? [paymentInstruction(settings, money.open, formatDateDe(invoice.dueDate), number)] : [],
    closing: 'Mit freundlichen Grüßen',
  };
}

/** "DE89370400440532013000" → "DE89 3704 0044 0532 0130 00". */
function groupIban(iban: string): string {
  return iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}
