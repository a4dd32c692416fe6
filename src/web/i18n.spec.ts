import { lang } from './i18n.js';
import { CATALOGUE } from './catalogue.js';

const { de, en } = CATALOGUE;

describe('the web app language', () => {
  it('writes amounts, dates and counts the German way by default', () => {
    const l = lang('de', 'Europe/Berlin');
    expect(l.money('1190')).toBe('1.190,00\u00a0€');
    expect(l.money(null)).toBe('—');
    expect(l.date('2026-11-24')).toBe('24.11.2026');
    expect(l.dateTime(new Date('2026-11-24T23:30:00Z'))).toBe('25.11.2026, 00:30');
    expect(l.t('dashboard.invoices', { count: 1 })).toBe('1 Rechnung');
    expect(l.t('dashboard.invoices', { count: 1234 })).toBe('1.234 Rechnungen');
    expect(l.count(1234)).toBe('1.234');
    expect(l.month('2026-03')).toBe('März 2026');
  });

  it('writes them the English way for a user who chose English', () => {
    const l = lang('en', 'Europe/Berlin');
    expect(l.money('1190')).toBe('€1,190.00');
    expect(l.date('2026-11-24')).toBe('24/11/2026');
    expect(l.t('dashboard.invoices', { count: 1234 })).toBe('1,234 invoices');
    expect(l.t('signIn.title')).toBe('Sign in');
  });

  it('has every German message in English too, and no empty one', () => {
    const keys = (tree: object, prefix = ''): string[] =>
      Object.entries(tree).flatMap(([key, value]) =>
        typeof value === 'object' ? keys(value as object, `${prefix}${key}.`) : [`${prefix}${key}`],
      );
    expect(keys(en)).toEqual(keys(de));
    const values = (tree: object): unknown[] => Object.values(tree).flatMap((v) => (typeof v === 'object' ? values(v as object) : [v]));
    expect(
      values(en)
        .concat(values(de))
        .filter((v) => typeof v !== 'string' || v.trim() === ''),
    ).toEqual([]);
  });
});
