import { composeAddress } from './address.js';

describe('composeAddress', () => {
  const base = {
    addressLine1: 'Muster GmbH',
    addressLine2: null,
    addressLine3: 'Musterstraße 1',
    addressLine4: null,
    zip: '10115',
    city: 'Berlin',
    countryCode: 'DE',
  };

  it('writes one line per part and skips empty parts', () => {
    expect(composeAddress(base)).toBe('Muster GmbH\nMusterstraße 1\n10115 Berlin\nDE');
  });

  it('keeps the optional lines in their place', () => {
    expect(composeAddress({ ...base, addressLine2: 'z. Hd. Erika Mustermann', addressLine4: 'Hinterhaus' })).toBe(
      'Muster GmbH\nz. Hd. Erika Mustermann\nMusterstraße 1\nHinterhaus\n10115 Berlin\nDE',
    );
  });

  it('treats blank lines as empty', () => {
    expect(composeAddress({ ...base, addressLine2: '  ' })).toBe('Muster GmbH\nMusterstraße 1\n10115 Berlin\nDE');
  });
});
