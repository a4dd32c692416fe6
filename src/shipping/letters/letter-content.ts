// What the letters and e-mails of shipping say, built from the invoice, its parties and the company's
// settings: the reminder letter, the cover page of an invoice sent by post, and the template values.
import type { Contact } from '../../contacts/contact.entity.js';
import type { AddressParts } from '../../customers/address.js';
import type { Customer } from '../../customers/customer.entity.js';
import { toPublicId } from '../../common/ids.js';
import { Decimal } from '../../common/money.js';
import { addDays } from '../../common/calendar-date.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import type { InterestLine } from '../../invoices/interest/interest-line.js';
import type { Payment } from '../../invoices/payment.entity.js';
import type { Reminder } from '../../invoices/reminder.entity.js';
import { formatAmountDe, formatDateDe, formatEuroDe } from '../../letters/german-format.js';
import type { LetterContent, LetterSender } from '../../letters/letter.js';
import { FOOTER, LABEL, LETTER, REMINDER_TITLES } from '../../letters/messages.de.js';
import { amountsOf, reminderRows, rowsAsText } from './reminder-charges.js';
import { greetingOf } from '../routing/recipients.js';
import { legalLines } from '../settings/legal-details.js';
import { fillTemplate, type ShippingSettings, type TemplateValues } from '../settings/shipping-settings.js';

export interface LetterParties {
  companyName: string;
  settings: ShippingSettings;
  invoice: Invoice;
  customer: Customer;
  contact: Contact | null;
  /** For a reminder: the invoice's interest lines (InterestLines.forInvoice), payments and reminders. */
  interestLines?: InterestLine[];
  payments?: Payment[];
  reminders?: Reminder[];
}

/** The reminder level's text and payment term (from the company's dunning policy). */
export interface ReminderTerms {
  text: string;
  paymentTermDays: number;
  /** The level's fee (what a fee credited against the flat fee amounted to). */
  fee: string;
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
  const contact = [settings.senderPhone && FOOTER.phone(settings.senderPhone), settings.senderEmail].filter((line): line is string =>
    Boolean(line),
  );
  const bank = [
    settings.bankAccountHolder,
    settings.bankIban && FOOTER.iban(groupIban(settings.bankIban)),
    settings.bankBic && FOOTER.bic(settings.bankBic),
    settings.bankName,
  ].filter((line): line is string => Boolean(line));
  const legal = legalLines(name, settings);
  return { name, address, contact, bank, legal, logo: settings.logo, returnAddress: [name, ...address].join(' · ') };
}

/** The window address: the customer's lines, postal code and city, and the country when it is abroad. */
export function recipientLines(customer: AddressParts, senderCountry: string): string[] {
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

export function payByOf(reminder: Reminder, terms: ReminderTerms): string {
  return addDays(reminder.reminderDate, terms.paymentTermDays);
}

export function reminderTitle(settings: ShippingSettings, reminder: Reminder): string {
  return settings.templates.reminderTitles[reminder.reminderStage - 1] ?? REMINDER_TITLES[reminder.reminderStage - 1] ?? REMINDER_TITLES[1];
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
      charges: terms ? rowsAsText(rowsOf(parties, reminder, terms)) : '',
    }),
  };
}

export function paymentInstruction(settings: ShippingSettings, open: Decimal, payBy: string, number: string): string {
  const account = settings.bankIban
    ? LETTER.account(groupIban(settings.bankIban).replace(/ /g, '\u00a0'), settings.bankBic, settings.bankName)
    : '';
  return LETTER.payment(formatEuroDe(open), payBy, account, number);
}

function infoBlock(parties: LetterParties, date: string) {
  const { customer, invoice } = parties;
  return [
    ...(customer.customerNumber ? [{ label: LABEL.customerNumber, value: customer.customerNumber }] : []),
    { label: LABEL.invoiceNumber, value: invoiceNumberOf(invoice) },
    ...(invoice.invoiceDate ? [{ label: LABEL.invoiceDate, value: formatDateDe(invoice.invoiceDate) }] : []),
    ...(invoice.dueDate ? [{ label: LABEL.dueDate, value: formatDateDe(invoice.dueDate) }] : []),
    { label: LABEL.date, value: date },
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
  const amounts = rowsOf(parties, reminder, terms);
  return {
    ...frame(parties),
    title: `${title} ${number}`,
    info: infoBlock(parties, formatDateDe(reminder.reminderDate)),
    subject: LETTER.reminderSubject(title, number),
    salutation: `${salutation},`,
    paragraphs: [fillTemplate(terms.text, templateValues(parties, salutation, reminder, terms))],
    amounts,
    closingParagraphs: [paymentInstruction(settings, money.open, formatDateDe(payByOf(reminder, terms)), number), LETTER.crossedPayment],
    closing: LETTER.closing,
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
    title: LETTER.invoiceSubject(number),
    info: infoBlock(parties, formatDateDe(today)),
    subject: LETTER.invoiceSubject(number),
    salutation: `${salutation},`,
    paragraphs: [fillTemplate(settings.templates.coverLetterText, templateValues(parties, salutation))],
    amounts: [{ label: LABEL.invoiceAmount, amount: formatEuroDe(money.principal.plus(money.fees)), total: true }],
    closingParagraphs: invoice.dueDate ? [paymentInstruction(settings, money.open, formatDateDe(invoice.dueDate), number)] : [],
    closing: LETTER.closing,
  };
}

/** The reminder's rows (letter table and e-mail alike). */
function rowsOf(parties: LetterParties, reminder: Reminder, terms: ReminderTerms) {
  const { invoice } = parties;
  const number = invoiceNumberOf(invoice);
  const { interestLines = [], payments, reminders } = parties;
  return reminderRows({ invoice, reminder, levelFee: terms.fee, number, interestLines, payments, reminders });
}

/** "DE89370400440532013000" → "DE89 3704 0044 0532 0130 00". */
function groupIban(iban: string): string {
  return iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}
