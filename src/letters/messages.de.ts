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

export const TEMPLATES = {
  invoiceEmailSubject: 'Rechnung {invoice_number} von {company_name}',
  invoiceEmailBody:
    '{salutation},\n\nanbei erhalten Sie unsere Rechnung {invoice_number} vom {invoice_date} über {total}\u00a0€. ' +
    'Bitte überweisen Sie den Betrag bis zum {due_date}.\n\nBei Fragen antworten Sie einfach auf diese E-Mail.\n\nMit freundlichen Grüßen\n{company_name}',
  reminderEmailSubject: '{reminder_title} zur Rechnung {invoice_number}',
  reminderEmailBody:
    '{salutation},\n\nanbei erhalten Sie unsere {reminder_title} zur Rechnung {invoice_number}. ' +
    'Der offene Betrag beträgt {open_amount}\u00a0€; bitte überweisen Sie ihn bis zum {pay_by}.\n\n{charges}\n\n' +
    `${CROSSED}\n\nMit freundlichen Grüßen\n{company_name}`,
  coverLetterText:
    'anbei erhalten Sie unsere Rechnung {invoice_number} vom {invoice_date} über {total}\u00a0€. Bitte überweisen Sie den Betrag bis zum {due_date}.',
};

export const LETTER = {
  closing: 'Mit freundlichen Grüßen',
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
} as const;

export const LABEL = {
  customerNumber: 'Kundennummer',
  invoiceNumber: 'Rechnungsnummer',
  invoiceDate: 'Rechnungsdatum',
  dueDate: 'Fälligkeitsdatum',
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
  payment: (date: string) => `Ihre Zahlung vom ${formatDateDe(date)}`,
  waived: 'abzüglich erlassener Beträge',
  open: 'Offener Betrag',
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
    `Forderung aus Rechnung Nr. ${number}${date ? ` vom ${formatDateDe(date)}` : ''}${due ? `, fällig am ${formatDateDe(due)}` : ''}`,
  columns: { date: 'Datum', text: 'Vorgang', amount: 'Betrag (EUR)', balance: 'Saldo (EUR)' },
  principal: 'Hauptforderung',
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
