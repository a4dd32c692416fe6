// The user's language: i18next over the catalogue (catalogue.ts), and amounts and dates in the
// user's locale (de: 1.190,00 €, 24.11.2026; en: €1,190.00, 11/24/2026).
import i18next, { type TFunction } from 'i18next';
import { CATALOGUE } from './catalogue.js';

export const LOCALES = ['de', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: unknown): value is Locale {
  return LOCALES.includes(value as Locale);
}

const i18n = i18next.createInstance();
void i18n.init({
  resources: { de: { translation: CATALOGUE.de }, en: { translation: CATALOGUE.en } },
  lng: 'de',
  fallbackLng: 'de',
  initAsync: false,
  // Templates escape on output (the `safe` attribute); escaping here as well would show &amp; to the user.
  interpolation: { escapeValue: false },
  returnNull: false,
});

const INTL: Record<Locale, string> = { de: 'de-DE', en: 'en-GB' };

/** What a page needs to speak the user's language. */
export interface Lang {
  locale: Locale;
  t: TFunction;
  /** An amount (a decimal string or number) in euros. */
  money: (amount: string | number | null | undefined) => string;
  /** A calendar date (YYYY-MM-DD). */
  date: (value: string | null | undefined) => string;
  /** A point in time, in the company's time zone. */
  dateTime: (value: Date | null | undefined) => string;
  /** A count: 1.234 / 1,234. */
  count: (value: number) => string;
  /** A month (YYYY-MM), short: Nov. 2026. */
  month: (value: string) => string;
}

export function lang(locale: Locale, timeZone: string): Lang {
  const t = i18n.getFixedT(locale);
  const money = new Intl.NumberFormat(INTL[locale], { style: 'currency', currency: 'EUR' });
  const date = new Intl.DateTimeFormat(INTL[locale], { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
  const dateTime = new Intl.DateTimeFormat(INTL[locale], { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const month = new Intl.DateTimeFormat(INTL[locale], { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const count = new Intl.NumberFormat(INTL[locale]);
  const none = t('none');
  return {
    locale,
    t,
    money: (amount) => (amount === null || amount === undefined ? none : money.format(Number(amount))),
    date: (value) => (value ? date.format(new Date(`${value}T00:00:00Z`)) : none),
    dateTime: (value) => (value ? dateTime.format(value) : none),
    count: (value) => count.format(value),
    month: (value) => month.format(new Date(`${value}-01T00:00:00Z`)),
  };
}
