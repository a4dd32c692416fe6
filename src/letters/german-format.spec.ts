import { formatAmountDe, formatDateDe, formatEuroDe } from './german-format.js';

describe('German formats', () => {
  it.each([
    ['0', '0,00'],
    ['2.5', '2,50'],
    ['119', '119,00'],
    ['1234.56', '1.234,56'],
    ['1234567.891', '1.234.567,89'],
    ['-12.5', '-12,50'],
  ])('%s → %s', (value, text) => expect(formatAmountDe(value)).toBe(text));

  it('adds the euro sign after the amount, never on a line of its own', () => expect(formatEuroDe('121.5')).toBe('121,50\u00a0€'));
  it('writes dates as DD.MM.YYYY', () => {
    expect(formatDateDe('2026-11-16')).toBe('16.11.2026');
    expect(formatDateDe(null)).toBe('');
  });
});
