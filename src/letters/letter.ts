// What a letter says, independent of how it is laid out: the content a feature hands to the renderer.
import type { LetterLogo } from './letter-logo.js';

export interface LetterSender {
  name: string;
  /** Street, postal code and city … as printed in the letterhead and footer. */
  address: string[];
  /** Phone, e-mail, web. */
  contact: string[];
  /** Bank details for the footer: holder, IBAN, BIC and bank. */
  bank: string[];
  /** The legal details of business letters for the footer: name and legal form, seat, register, directors, VAT ID. */
  legal: string[];
  /** Printed in the letterhead's top right corner. */
  logo?: LetterLogo | null;
}

export interface AmountRow {
  label: string;
  /** Already formatted ("121,50 €"). */
  amount: string;
  /** The final row (open amount): bold, with a rule above. */
  total?: boolean;
}

export interface LetterContent {
  sender: LetterSender;
  /** The small underlined line above the address (Rücksendeangabe). */
  returnAddress: string;
  /** Up to six lines, shown through the envelope window. */
  recipient: string[];
  /** Label/value pairs of the information block (customer number, invoice number, date …). */
  info: Array<{ label: string; value: string }>;
  subject: string;
  /** The greeting line, e.g. "Sehr geehrte Frau Muster,". */
  salutation: string;
  /** Paragraphs before the amounts table; "\n" breaks a line inside a paragraph. */
  paragraphs: string[];
  amounts?: AmountRow[];
  /** Paragraphs after the table: payment instruction and the like. */
  closingParagraphs: string[];
  closing: string;
  signature: string;
  /** PDF document title. */
  title: string;
}
