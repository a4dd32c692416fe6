// A company's shipping settings: the sender shown on letters, bank details for the payment instruction,
// the reply address of e-mails, the cover-page switch and the texts, with German defaults (the catalogue
// src/letters/messages.de.ts).
import type { LetterLogo } from '../../letters/letter-logo.js';
import { REMINDER_TITLES, TEMPLATES } from '../../letters/messages.de.js';
import type { LegalForm } from './legal-details.js';

export interface ShippingTemplates {
  invoiceEmailSubject: string;
  invoiceEmailBody: string;
  reminderEmailSubject: string;
  reminderEmailBody: string;
  /** Text of the cover page put in front of an invoice that goes by post. */
  coverLetterText: string;
  /** What reminders of level 1, 2, 3 are called in subjects and letters. */
  reminderTitles: [string, string, string];
}

export interface ShippingSettings {
  /** Empty: the company's name. */
  senderName: string | null;
  senderStreet: string | null;
  senderZip: string | null;
  senderCity: string | null;
  senderCountryCode: string;
  senderPhone: string | null;
  senderEmail: string | null;
  bankAccountHolder: string | null;
  bankIban: string | null;
  bankBic: string | null;
  bankName: string | null;
  /** Where answers to the e-mails go; empty: senderEmail. */
  replyTo: string | null;
  /** The legal details of business letters (legal-details.ts says which a legal form requires). */
  legalForm: LegalForm | null;
  registeredOffice: string | null;
  registerCourt: string | null;
  /** "HRB 12345". */
  registerNumber: string | null;
  /** Managing directors, board members or partners, each with surname and at least one first name written out. */
  managingDirectors: string[];
  /** A GmbH & Co. KG's general partner: "Muster Verwaltungs GmbH, Sitz Berlin, Amtsgericht Charlottenburg, HRB 99999". */
  generalPartner: string | null;
  /** Normalised: upper case, no spaces ("DE123456789"). */
  vatId: string | null;
  taxNumber: string | null;
  /** Put a DIN 5008 cover page with the address block in front of invoices sent by post. */
  coverPage: boolean;
  /**
   * Refuse uploaded and pushed PDFs with active content (JavaScript, /Launch actions, embedded files),
   * 422 document.active_content. The service e-mails and prints these PDFs to debtors, and a company can
   * refuse to forward active content to them; without it such PDFs are accepted and flagged
   * (pdf_active_content).
   */
  refuseActivePdf: boolean;
  templates: ShippingTemplates;
  /** The letterhead's logo; kept in a table of its own (letter_logos), not in the settings' JSON. */
  logo: LetterLogo | null;
}

export const DEFAULT_TEMPLATES: ShippingTemplates = { ...TEMPLATES, reminderTitles: REMINDER_TITLES };

export const DEFAULT_SETTINGS: ShippingSettings = {
  senderName: null,
  senderStreet: null,
  senderZip: null,
  senderCity: null,
  senderCountryCode: 'DE',
  senderPhone: null,
  senderEmail: null,
  bankAccountHolder: null,
  bankIban: null,
  bankBic: null,
  bankName: null,
  replyTo: null,
  legalForm: null,
  registeredOffice: null,
  registerCourt: null,
  registerNumber: null,
  managingDirectors: [],
  generalPartner: null,
  vatId: null,
  taxNumber: null,
  coverPage: false,
  refuseActivePdf: false,
  templates: DEFAULT_TEMPLATES,
  logo: null,
};

/** The placeholders a template may use; each is filled with text ready to print. */
export const PLACEHOLDERS = [
  'salutation',
  'company_name',
  'customer_name',
  'customer_number',
  'invoice_number',
  'invoice_date',
  'due_date',
  'total',
  'open_amount',
  'fees',
  'reminder_title',
  'reminder_stage',
  'reminder_date',
  'pay_by',
  /** A reminder's itemised amounts (interest lines, fees, flat fee), one per line. */
  'charges',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type TemplateValues = Partial<Record<Placeholder, string>>;

const PLACEHOLDER = /\{([a-z_0-9]+)\}/g;

/** Fills `{name}` placeholders; one without a value stays visible rather than vanishing silently. */
export function fillTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (match, name: string) => values[name as Placeholder] ?? match);
}

/** The placeholders in a template that the service does not know. */
export function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
}

/** Stored settings over the defaults: a company without a row, or an older row, gets every field. */
export function withDefaults(stored: Partial<ShippingSettings> | null, logo: LetterLogo | null = null): ShippingSettings {
  return { ...DEFAULT_SETTINGS, ...stored, templates: { ...DEFAULT_TEMPLATES, ...stored?.templates }, logo };
}
