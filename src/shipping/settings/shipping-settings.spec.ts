import { DEFAULT_TEMPLATES, fillTemplate, unknownPlaceholders, withDefaults } from './shipping-settings.js';

describe(fillTemplate.name, () => {
  it('opens the default invoice e-mail with the salutation and fills every placeholder', () => {
    const text = fillTemplate(DEFAULT_TEMPLATES.invoiceEmailBody, {
      salutation: 'Sehr geehrte Frau Muster',
      invoice_number: '2026-001',
      invoice_date: '02.11.2026',
      total: '119,00',
      due_date: '16.11.2026',
      company_name: 'Muster Handel GmbH',
    });
    expect(
      text.startsWith('Sehr geehrte Frau Muster,\n\nanbei erhalten Sie unsere Rechnung 2026-001 vom 02.11.2026 über 119,00\u00a0€.'),
    ).toBe(true);
    expect(text).not.toMatch(/\{\w+\}/);
  });

  it('leaves a placeholder without a value visible', () => {
    expect(fillTemplate('Rechnung {invoice_number}', {})).toBe('Rechnung {invoice_number}');
  });
});

describe(unknownPlaceholders.name, () => {
  it('names placeholders the service cannot fill', () => {
    expect(unknownPlaceholders('{salutation}, {iban} und {foo_bar}')).toEqual(['iban', 'foo_bar']);
    for (const template of Object.values(DEFAULT_TEMPLATES).flat()) expect(unknownPlaceholders(template)).toEqual([]);
  });
});

describe(withDefaults.name, () => {
  it('completes stored settings with the defaults, templates field by field', () => {
    const settings = withDefaults({ coverPage: true, templates: { invoiceEmailSubject: 'RE {invoice_number}' } as never });
    expect(settings.coverPage).toBe(true);
    expect(settings.senderCountryCode).toBe('DE');
    expect(settings.templates.invoiceEmailSubject).toBe('RE {invoice_number}');
    expect(settings.templates.reminderTitles).toEqual(['Zahlungserinnerung', '1. Mahnung', 'Letzte Mahnung']);
  });
});
