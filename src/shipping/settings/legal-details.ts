// A company's legal details on its business letters, invoices and e-mails: which ones the law requires
// depends on the legal form. The table below is the one place that says so, each row with its source;
// e-mails to a named recipient are business letters too (§ 37a HGB and the provisions citing it).

export const LEGAL_FORMS = [
  'gmbh',
  'ug',
  'gmbh_co_kg',
  'ag',
  'se',
  'kgaa',
  'ohg',
  'kg',
  'ek',
  'partg',
  'partg_mbb',
  'eg',
  'gbr',
  'sole_trader',
  'other',
] as const;
export type LegalForm = (typeof LEGAL_FORMS)[number];

type RegisterField = 'registeredOffice' | 'registerCourt' | 'registerNumber' | 'managingDirectors' | 'generalPartner';

interface LegalFormRule {
  /** How the form is printed; null: nothing to print (an unregistered sole trader). */
  label: string | null;
  /** The details a business letter of this form must show, besides the name. */
  requires: readonly RegisterField[];
  /** What the managing persons are called in the footer. */
  directors: string;
  source: string;
}

const REGISTER: readonly RegisterField[] = ['registeredOffice', 'registerCourt', 'registerNumber'];
const WITH_DIRECTORS: readonly RegisterField[] = [...REGISTER, 'managingDirectors'];

export const LEGAL_FORM_RULES: Readonly<Record<LegalForm, LegalFormRule>> = {
  // Legal form, seat, register court and number, every managing director (§ 35a (1) GmbHG); the UG is a GmbH (§ 5a GmbHG).
  gmbh: { label: 'GmbH', requires: WITH_DIRECTORS, directors: 'Geschäftsführer', source: '§ 35a GmbHG' },
  ug: { label: 'UG (haftungsbeschränkt)', requires: WITH_DIRECTORS, directors: 'Geschäftsführer', source: '§ 35a GmbHG, § 5a GmbHG' },
  // No natural person is liable: the general partner's details (its managing directors) too (§ 125a (1) sentence 2 HGB, § 177a HGB).
  gmbh_co_kg: {
    label: 'GmbH & Co. KG',
    requires: [...WITH_DIRECTORS, 'generalPartner'],
    directors: 'Geschäftsführer der Komplementärin',
    source: '§ 125a HGB, § 177a HGB, § 35a GmbHG',
  },
  // Every member of the board (§ 80 (1) AktG); the SE through Art. 9 SE-VO (one-tier: § 43 SEAG), the KGaA through § 278 (3) AktG.
  ag: { label: 'AG', requires: WITH_DIRECTORS, directors: 'Vorstand', source: '§ 80 AktG' },
  se: { label: 'SE', requires: WITH_DIRECTORS, directors: 'Vorstand', source: '§ 80 AktG, § 43 SEAG' },
  kgaa: { label: 'KGaA', requires: WITH_DIRECTORS, directors: 'Persönlich haftende Gesellschafter', source: '§ 80 AktG, § 278 (3) AktG' },
  // Legal form, seat, register court and number (§ 125a HGB, since 1 January 2024 § 125 HGB; § 177a HGB for the KG).
  ohg: { label: 'OHG', requires: REGISTER, directors: 'Gesellschafter', source: '§ 125a HGB' },
  kg: { label: 'KG', requires: REGISTER, directors: 'Persönlich haftende Gesellschafter', source: '§ 125a HGB, § 177a HGB' },
  // A registered merchant: firm, "e.K.", place of business, register court and number (§ 37a (1) HGB).
  ek: { label: 'e.K.', requires: REGISTER, directors: 'Inhaber', source: '§ 37a HGB' },
  // The partnership register (§ 7 (5) PartGG with § 125a HGB).
  partg: { label: 'PartG', requires: REGISTER, directors: 'Partner', source: '§ 7 (5) PartGG, § 125a HGB' },
  partg_mbb: { label: 'PartG mbB', requires: REGISTER, directors: 'Partner', source: '§ 7 (5) PartGG, § 125a HGB' },
  // Every member of the board (§ 25a GenG).
  eg: { label: 'eG', requires: WITH_DIRECTORS, directors: 'Vorstand', source: '§ 25a GenG' },
  // Neither is in a commercial register; what they do enter is printed.
  gbr: { label: 'GbR', requires: [], directors: 'Gesellschafter', source: '' },
  sole_trader: { label: null, requires: [], directors: 'Inhaber', source: '' },
  other: { label: null, requires: [], directors: 'Vertreten durch', source: '' },
};

const WIRE_NAMES: Record<RegisterField, string> = {
  registeredOffice: 'registered_office',
  registerCourt: 'register_court',
  registerNumber: 'register_number',
  managingDirectors: 'managing_directors',
  generalPartner: 'general_partner',
};

/** The fields of the shipping settings this file reads. */
export interface LegalDetails {
  legalForm: LegalForm | null;
  registeredOffice: string | null;
  registerCourt: string | null;
  registerNumber: string | null;
  managingDirectors: string[];
  /** The general partner of a partnership without a natural person liable: its firm, seat and register. */
  generalPartner: string | null;
  vatId: string | null;
  taxNumber: string | null;
}

/**
 * The footer lines of letters, invoices and e-mails: name and legal form, seat, register, managing
 * persons, VAT ID / tax number. What is set is printed, whatever the form requires.
 */
export function legalLines(name: string, details: LegalDetails): string[] {
  const rule = details.legalForm ? LEGAL_FORM_RULES[details.legalForm] : null;
  const label = rule?.label;
  const register = [details.registerCourt, details.registerNumber].filter(Boolean).join(', ');
  const taxIds = [details.vatId && `USt-IdNr. ${details.vatId}`, details.taxNumber && `Steuernr. ${details.taxNumber}`];
  const lines = [
    label && !name.includes(label) ? `${name}, ${label}` : name,
    details.registeredOffice && `Sitz: ${details.registeredOffice}`,
    register && `Registergericht: ${register}`,
    details.generalPartner && `Persönlich haftende Gesellschafterin: ${details.generalPartner}`,
    details.managingDirectors.length > 0 && `${rule?.directors ?? 'Vertreten durch'}: ${details.managingDirectors.join(', ')}`,
    taxIds.filter(Boolean).join(' · '),
  ];
  return lines.filter((line): line is string => typeof line === 'string' && line !== '');
}

/** What a company's legal details lack, as warnings naming the field and the provision requiring it. */
export function legalDetailsWarnings(details: LegalDetails): string[] {
  const warnings: string[] = [];
  if (!details.legalForm)
    warnings.push(
      'legal_form is not set: letters, invoices and e-mails cannot show the details business letters require ' +
        '(§ 35a GmbHG, § 37a HGB, § 80 AktG, § 125a HGB)',
    );
  else {
    const rule = LEGAL_FORM_RULES[details.legalForm];
    for (const field of rule.requires) {
      const value = details[field];
      if (Array.isArray(value) ? value.length === 0 : !value)
        warnings.push(`${WIRE_NAMES[field]} is not set: business letters of a ${rule.label} must show it (${rule.source})`);
    }
  }
  if (!details.vatId && !details.taxNumber)
    warnings.push('neither vat_id nor tax_number is set: an invoice must show one of them (§ 14 (4) Nr. 2 UStG)');
  return warnings;
}
