import { Decimal } from 'decimal.js';
import { isZeroText } from './decimal-text.js';
import { formatDecimal } from './money.js';

/** formatDecimal's exact way, for every input (decimal-text.ts must agree with it). */
const exact = (value: Decimal.Value) => {
  const text = new Decimal(value).toFixed();
  return text.includes('.') ? text : `${text}.0`;
};

describe('formatDecimal', () => {
  it('gives the shortest form with one fractional digit at least', () => {
    expect(['119.50', '119', '0.00', '-3.10', '12.345', '100.000', '-0.50'].map((v) => formatDecimal(v))).toEqual([
      '119.5',
      '119.0',
      '0.0',
      '-3.1',
      '12.345',
      '100.0',
      '-0.5',
    ]);
    expect(formatDecimal(null)).toBeNull();
    expect(formatDecimal(new Decimal('7.10'))).toBe('7.1');
    expect(formatDecimal(2.5)).toBe('2.5');
  });

  it('answers a numeric as PostgreSQL writes it exactly as decimal.js does, and anything else through decimal.js', () => {
    const texts = [
      '0',
      '-0',
      '-0.00',
      '0.10',
      '10',
      '10.0',
      '1e3',
      '1.5e-2',
      '007.50',
      '+4.20',
      ' 4.2',
      '4.',
      '.5',
      '123456789012345.6700',
    ];
    for (let i = 0; i < 5000; i++) {
      const digits = String(Math.floor(Math.random() * 10 ** (1 + (i % 12))));
      const scale = i % 5;
      const text = scale === 0 ? digits : `${digits.slice(0, -scale) || '0'}.${digits.padStart(scale, '0').slice(-scale)}`;
      texts.push(i % 3 === 0 ? `-${text}` : text);
    }
    for (const text of texts) {
      let expected: string;
      try {
        expected = exact(text);
      } catch {
        expect(() => formatDecimal(text)).toThrow();
        continue;
      }
      expect([text, formatDecimal(text)]).toEqual([text, expected]);
    }
  });
});

describe('isZeroText', () => {
  it('answers true exactly for the zeros PostgreSQL writes, as decimal.js reads them', () => {
    for (const text of ['0', '0.00', '0.0', '0.000000'])
      expect([text, isZeroText(text), new Decimal(text).isZero()]).toEqual([text, true, true]);
    for (const text of ['0.01', '-0.01', '10', '100.00', '0.10', '00', '-0.00', '.0', '0.', '', ' 0', '0e1'])
      expect([text, isZeroText(text)]).toEqual([text, false]);
    expect(isZeroText(0)).toBe(false);
    expect(isZeroText(new Decimal(0))).toBe(false);
  });
});
