// Every German text of the letters, e-mails and the statement of claim, in one place, reviewed against
// ../shared/LETTERS-DE.md (DIN 5008 forms, the words of the trade). Builders read their words from here;
// companies may override the templates and titles in their settings, these are the defaults.
import { Decimal } from '../common/money.js';
import { formatAmountDe, formatDateDe, formatEuroDe } from './german-format.js';

export const GREETING = {
  generic: 'Sehr geehrte Damen und Herren',
  female: 'Sehr geehrte Frau',
  male: 'Sehr geehrter Herr',
  informal: 'Hallo',
} as const;

/** Titles by stage (LETTERS-DE "Titles by stage"); the company's settings may rename them. */
export const REMINDER_TITLES: [string, string, string] = ['Zahlungserinnerung', '1. Mahnung', 'Letzte Mahnung'];

/** The policy's default texts per level ({placeholders} as in the templates). */
export const REMINDER_TEXTS: [string, string, string] = [
  'sicher haben Sie unsere Rechnung {invoice_number} vom {invoice_date}, fällig am {due_date}, übersehen. ' +
    'Bitte überweisen Sie den offenen Betrag von {open_amount}\u00a0€ bis zum {pay_by}.',
  'leider konnten wir zu unserer Rechnung {invoice_number} vom {invoice_date} bis heute keinen vollständigen Zahlungseingang ' +
    'feststellen. Bitte überweisen Sie den offenen Betrag von {open_amount}\u00a0€ bis zum {pay_by}. Mit der Zahlung ' +
    'befinden Sie sich in Verzug; für die Dauer des Verzugs fallen Verzugszinsen an.',
  'trotz unserer Erinnerungen ist die Rechnung {invoice_number} vom {invoice_date} weiterhin offen. Bitte überweisen Sie ' +
    'den offenen Betrag von {open_amount}\u00a0€ bis spätestens {pay_by}. Geht Ihre Zahlung bis dahin nicht ein, ' +
    'übergeben wir die Forderung ohne weitere Ankündigung einem Inkassounternehmen.',
];

const CROSSED = 'Sollte sich Ihre Zahlung mit diesem Schreiben überschnitten haben, betrachten Sie es bitte als gegenstandslos.';
const CLOSING = 'Mit freundlichen Grüßen';
const PAY_BY_DUE = 'Bitte überweisen Sie den Betrag bis zum {due_date}.';
const INVOICE_MAIL_END = `${PAY_BY_DUE}\n\nBei Fragen antworten Sie einfach auf diese E-Mail.\n\n${CLOSING}\n{company_name}`;

export const TEMPLATES = {
  invoiceEmailSubject: 'Rechnung {invoice_number} von {company_name}',
  invoiceEmailBody: `{salutation},\n\nanbei erhalten Sie unsere Rechnung {invoice_number} vom {invoice_date} über {total}\u00a0€. ${INVOICE_MAIL_END}`,
  reminderEmailSubject: '{reminder_title} zur Rechnung {invoice_number}',
  reminderEmailBody:
    '{salutation},\n\nanbei erhalten Sie unsere {reminder_title} zur Rechnung {invoice_number}. ' +
    'Der offene Betrag beträgt {open_amount}\u00a0€; bitte überweisen Sie ihn bis zum {pay_by}.\n\n{charges}\n\n' +
    `${CROSSED}\n\n${CLOSING}\n{company_name}`,
  coverLetterText: `anbei erhalten Sie unsere Rechnung {invoice_number} vom {invoice_date} über {total}\u00a0€. ${PAY_BY_DUE}`,
};

export const LETTER = {
  closing: CLOSING,
  crossedPayment: CROSSED,
  invoiceSubject: (number: string) => `Rechnung ${number}`,
  reminderSubject: (title: string, number: string) => `${title} zur Rechnung ${number}`,
  invoiceIntro: 'hiermit stellen wir Ihnen den folgenden Betrag in Rechnung.',
  payment: (open: string, payBy: string, account: string, number: string) =>
    `Bitte überweisen Sie den offenen Betrag von ${open} bis zum ${payBy}${account}. Geben Sie als Verwendungszweck bitte ${number} an.`,
  account: (iban: string, bic: string | null, bank: string | null) =>
    ` auf unser Konto IBAN\u00a0${iban}${bic ? `, BIC ${bic}` : ''}${bank ? ` (${bank})` : ''}`,
  /** The heading of the itemisation in a reminder e-mail. */
  chargesHeading: 'Zusammensetzung des offenen Betrags:',
  /** The page number of a letter of several pages. */
  page: (page: number, pages: number) => `Seite ${page} von ${pages}`,
} as const;

/** The sender's contact and bank lines in the footer (DIN 5008). */
export const FOOTER = {
  phone: (phone: string) => `Tel. ${phone}`,
  iban: (iban: string) => `IBAN ${iban}`,
  bic: (bic: string) => `BIC ${bic}`,
} as const;

/** "Rechnung Nr. 2026-001 vom 02.11.2026": the original invoice as a payment request or claim names it. */
function invoiceNo(number: string, date: string | null): string {
  return `Rechnung Nr. ${number}${date ? ` vom ${formatDateDe(date)}` : ''}`;
}

/** The invoice the service renders when it has everything § 14 (4) UStG asks for (invoice-kind.ts). */
export const INVOICE = {
  intro: 'für unsere Lieferungen und Leistungen berechnen wir Ihnen:',
  /** "Pos. 1 (USt. 19 %)": the amount row of a line item. */
  itemRow: (position: number, vatRate: number) => `Pos. ${position} (USt. ${vatRate} %)`,
  /** "Pos. 1: Beratung, 2,00 Std. à 100,00 €" */
  item: (position: number, text: string) => `Pos. ${position}: ${text}`,
  unitPrice: (price: string) => `à ${price}`,
  netAtRate: (rate: number) => `Nettobetrag zu ${rate} %`,
  vatAtRate: (rate: number, net: string) => `zzgl. USt. ${rate} % auf ${net}`,
} as const;

/** The request to pay an invoice the service cannot render as one (invoice-kind.ts, § 14c UStG). */
export const PAYMENT_REQUEST = {
  title: (number: string) => `Zahlungsaufforderung zur Rechnung ${number}`,
  subject: (number: string) => `Zahlungsaufforderung / Rechnungskopie zur Rechnung Nr. ${number}`,
  invoice: invoiceNo,
  request: (number: string, date: string | null) =>
    `wir bitten Sie, den folgenden Betrag aus unserer ${invoiceNo(number, date)} zu begleichen.`,
  notAnInvoice: (number: string, date: string | null) =>
    `Dieses Schreiben ersetzt die Rechnung nicht. Maßgeblich ist unsere ${invoiceNo(number, date)}; ` +
    'sie allein weist die Umsatzsteuer aus und berechtigt zum Vorsteuerabzug. Gern senden wir Ihnen auf Anfrage eine weitere Ausfertigung.',
  /** The e-mail that carries it, in place of the company's invoice templates (mail-content.ts). */
  emailSubject: 'Zahlungsaufforderung zur Rechnung {invoice_number} von {company_name}',
  emailBody:
    '{salutation},\n\nanbei erhalten Sie unsere Zahlungsaufforderung zur Rechnung {invoice_number} vom {invoice_date} über ' +
    `{total}\u00a0€. ${INVOICE_MAIL_END}`,
} as const;

/** The names of the PDFs attached to e-mails and offered for download. */
export const FILE_NAME = {
  invoice: (number: string) => `Rechnung-${number}.pdf`,
  paymentRequest: (number: string) => `Zahlungsaufforderung-${number}.pdf`,
  attachment: (number: string) => `Anlage-${number}.pdf`,
  invoiceLetter: (number: string) => `Brief-Rechnung-${number}`,
  statementOfClaim: (number: string) => `Forderungsaufstellung-${number}.pdf`,
} as const;

export const LABEL = {
  customerNumber: 'Kundennummer',
  invoiceNumber: 'Rechnungsnummer',
  invoiceDate: 'Rechnungsdatum',
  dueDate: 'Fälligkeitsdatum',
  dueOn: 'Fällig am',
  deliveryDate: 'Leistungsdatum',
  deliveryPeriod: 'Leistungszeitraum',
  /** § 14 (4) Nr. 2 UStG: the seller's VAT ID or, without one, the tax number. */
  vatId: 'USt-IdNr.',
  taxNumber: 'Steuernummer',
  orderDate: 'Auftragsdatum',
  reference: 'Ihre Referenz',
  date: 'Datum',
  net: 'Nettobetrag',
  invoiceAmount: 'Rechnungsbetrag',
  invoice: (number: string, date: string | null) => `Rechnung ${number}${date ? ` vom ${formatDateDe(date)}` : ''}`,
  fees: 'Mahnkosten',
  /** § 288 (5) sentence 3 BGB: a fee for the costs of pursuit is credited against the flat fee. */
  feeCredited: (fee: string) => `Mahnkosten ${formatEuroDe(fee)} (auf die Pauschale angerechnet)`,
  flatFee: 'Verzugspauschale gemäß § 288 Abs. 5 BGB',
  interestOther: 'Verzugszinsen gemäß § 288 BGB',
  paid: 'abzüglich Ihrer Zahlungen',
  payments: 'abzüglich Zahlungen',
  payment: (date: string) => `Ihre Zahlung vom ${formatDateDe(date)}`,
  waived: 'abzüglich erlassener Beträge',
  open: 'Offener Betrag',
  toPay: 'Zu zahlender Betrag',
} as const;

/** What an interest line needs to be printed (the InterestLine of src/invoices/interest, by structure). */
export interface InterestLineText {
  kind: 'interest' | 'correction';
  from: string;
  until: string;
  days: number;
  principal: string;
  baseRate: string;
  points: number;
}

/** "1,27 %", "10,27 %": a rate with two decimals, as LETTERS-DE writes percentages. */
export function percentDe(value: Decimal.Value): string {
  return `${formatAmountDe(value)}\u00a0%`;
}

/** The rate and how it is built: "9 Prozentpunkte über dem Basiszinssatz von 1,27 %, also 10,27 % p. a.". */
export function interestRateText(baseRate: string, points: number): string {
  return `${points} Prozentpunkte über dem Basiszinssatz von ${percentDe(baseRate)}, also ${percentDe(totalRate(baseRate, points))} p.\u00a0a.`;
}

/** Base rate plus points, "10.27". */
export function totalRate(baseRate: string, points: number): string {
  return new Decimal(baseRate).plus(points).toFixed(2);
}

/** §§ 288 (1) consumers (5 points), 288 (2) businesses (9 points). */
export function interestBasis(points: number): string {
  return `Verzugszinsen gemäß § 288 Abs. ${points === 5 ? 1 : 2} BGB`;
}

/** One interest line (LETTERS-DE "Interest line") without its amount, which the amount column shows. */
export function interestLineLabel(line: InterestLineText): string {
  const days = `${line.days} ${line.days === 1 ? 'Tag' : 'Tage'}`;
  const head = line.kind === 'correction' ? `Korrektur der ${interestBasis(line.points)}` : interestBasis(line.points);
  return (
    `${head} (${interestRateText(line.baseRate, line.points)}) auf ${formatEuroDe(line.principal)} ` +
    `vom ${formatDateDe(line.from)} bis ${formatDateDe(line.until)} (${days})`
  );
}

/** The statement of claim's words (LETTERS-DE "Statement of claim"). */
export const CLAIM = {
  title: 'Forderungsaufstellung',
  creditor: 'Gläubiger',
  debtor: 'Schuldner',
  madeOn: 'Stand',
  origin: (number: string, date: string | null, due: string | null) =>
    `Forderung aus ${invoiceNo(number, date)}${due ? `, fällig am ${formatDateDe(due)}` : ''}`,
  columns: { date: 'Datum', text: 'Vorgang', amount: 'Betrag (EUR)', balance: 'Saldo (EUR)' },
  principal: 'Hauptforderung',
  /** A stage the policy no longer names. */
  stage: (stage: number) => `${stage}. Mahnung`,
  fee: (stageTitle: string) => `Mahnkosten (${stageTitle})`,
  feeCredited: (stageTitle: string, fee: string) => `Mahnkosten (${stageTitle}) ${formatEuroDe(fee)}, auf die Pauschale angerechnet`,
  flatFee: 'Verzugspauschale gemäß § 288 Abs. 5 BGB',
  interest: (line: InterestLineText) =>
    `${line.kind === 'correction' ? 'Korrektur der Zinsen' : 'Zinsen'} ${formatDateDe(line.from)} – ${formatDateDe(line.until)} ` +
    `(${line.days} ${line.days === 1 ? 'Tag' : 'Tage'})`,
  interestDetail: (line: InterestLineText) =>
    `${interestBasis(line.points)}: ${interestRateText(line.baseRate, line.points)} auf ${formatEuroDe(line.principal)}`,
  payment: (date: string) => `Zahlung vom ${formatDateDe(date)}`,
  allocation: (costs: string, interest: string, principal: string) =>
    `verrechnet gemäß § 367 BGB auf Kosten ${formatEuroDe(costs)}, Zinsen ${formatEuroDe(interest)}, Hauptforderung ${formatEuroDe(principal)}`,
  sums: 'Offen zum Stand',
  openPrincipal: 'Hauptforderung',
  openCosts: 'Kosten',
  openInterest: 'Zinsen',
  openTotal: 'Gesamtforderung',
  continuing: (rate: string, principal: string, since: string) =>
    `zzgl. Zinsen in Höhe von ${rate} p.\u00a0a. auf ${formatEuroDe(principal)} seit dem ${formatDateDe(since)}`,
} as const;
