import { LEGAL_FORM_RULES, LEGAL_FORMS, type LegalDetails, legalDetailsWarnings, legalLines } from './legal-details.js';

const NONE: LegalDetails = {
  legalForm: null,
  registeredOffice: null,
  registerCourt: null,
  registerNumber: null,
  managingDirectors: [],
  generalPartner: null,
  vatId: null,
  taxNumber: null,
};
const COMPLETE: LegalDetails = {
  legalForm: 'gmbh',
  registeredOffice: 'Berlin',
  registerCourt: 'Amtsgericht Charlottenburg',
  registerNumber: 'HRB 12345',
  managingDirectors: ['Erika Mustermann', 'Max Mustermann'],
  generalPartner: null,
  vatId: 'DE123456789',
  taxNumber: null,
};

describe(legalLines.name, () => {
  it('prints name with legal form, seat, register, directors and VAT ID in that order', () => {
    expect(legalLines('Muster Handel GmbH', COMPLETE)).toEqual([
      'Muster Handel GmbH',
      'Sitz: Berlin',
      'Registergericht: Amtsgericht Charlottenburg, HRB 12345',
      'Geschäftsführer: Erika Mustermann, Max Mustermann',
      'USt-IdNr. DE123456789',
    ]);
  });

  it('adds the legal form when the name lacks it, names the board of an AG, and leaves out what is not set', () => {
    expect(legalLines('Muster', { ...COMPLETE, legalForm: 'ag', registerCourt: null, vatId: null, taxNumber: '27/123/45678' })).toEqual([
      'Muster, AG',
      'Sitz: Berlin',
      'Registergericht: HRB 12345',
      'Vorstand: Erika Mustermann, Max Mustermann',
      'Steuernr. 27/123/45678',
    ]);
    expect(legalLines('Erika Muster', NONE)).toEqual(['Erika Muster']);
  });

  it('a GmbH & Co. KG names its general partner and that partner’s managing directors', () => {
    const kg = { ...COMPLETE, legalForm: 'gmbh_co_kg' as const, generalPartner: 'Muster Verwaltungs GmbH, Sitz Berlin, HRB 999' };
    expect(legalLines('Muster GmbH & Co. KG', kg).slice(3, 5)).toEqual([
      'Persönlich haftende Gesellschafterin: Muster Verwaltungs GmbH, Sitz Berlin, HRB 999',
      'Geschäftsführer der Komplementärin: Erika Mustermann, Max Mustermann',
    ]);
    expect(legalDetailsWarnings({ ...kg, generalPartner: null })).toEqual([
      'general_partner is not set: business letters of a GmbH & Co. KG must show it (§ 125a HGB, § 177a HGB, § 35a GmbHG)',
    ]);
  });
});

describe(legalDetailsWarnings.name, () => {
  it('a complete GmbH: no warning', () => {
    expect(legalDetailsWarnings(COMPLETE)).toEqual([]);
  });

  it('names the legal form and the tax identification when nothing is set', () => {
    expect(legalDetailsWarnings(NONE)).toEqual([
      expect.stringContaining('legal_form is not set'),
      expect.stringContaining('neither vat_id nor tax_number'),
    ]);
  });

  it('asks each legal form for what its row requires, citing the row’s source', () => {
    for (const form of LEGAL_FORMS) {
      const rule = LEGAL_FORM_RULES[form];
      const warnings = legalDetailsWarnings({ ...NONE, legalForm: form, vatId: 'DE123456789' });
      expect(warnings).toHaveLength(rule.requires.length);
      for (const warning of warnings) expect(warning).toContain(`(${rule.source})`);
    }
    expect(LEGAL_FORM_RULES.gmbh.requires).toContain('managingDirectors');
    expect(LEGAL_FORM_RULES.ek.requires).toEqual(['registeredOffice', 'registerCourt', 'registerNumber']);
    expect(LEGAL_FORM_RULES.sole_trader.requires).toEqual([]);
  });
});
