import { isTaxNumber, isVatId, normalizeVatId } from './vat-id.js';

describe(isVatId.name, () => {
  it('accepts the format of each country prefix', () => {
    for (const id of [
      'DE123456789',
      'ATU12345678',
      'BE0123456789',
      'FRXX123456789',
      'NL123456789B01',
      'ESX1234567X',
      'IE1234567FA',
      'SE123456789001',
      'EL123456789',
    ])
      expect({ id, valid: isVatId(id) }).toEqual({ id, valid: true });
  });

  it('refuses a wrong length, an unknown prefix and a country outside the EU', () => {
    for (const id of ['DE12345678', 'DE1234567890', 'ATU1234567', 'GR123456789', 'US123456789', 'XX123456789', 'DE12345678A', ''])
      expect({ id, valid: isVatId(id) }).toEqual({ id, valid: false });
  });

  it('reads the number as people write it', () => {
    expect(normalizeVatId(' de 123.456-789 ')).toBe('DE123456789');
  });
});

describe(isTaxNumber.name, () => {
  it('takes the tax office and the federal form, not other text', () => {
    expect(['12/345/67890', '123/456/78901', '2893081508152', '27 123 45678'].map(isTaxNumber)).toEqual([true, true, true, true]);
    expect(['123', '12-345-67890', 'DE123456789', '12345678901234'].map(isTaxNumber)).toEqual([false, false, false, false]);
  });
});
