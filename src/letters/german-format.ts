// Amounts and dates as German letters print them: "1.234,56 €", "16.11.2026".
import { Decimal } from '../common/money.js';

/** "1.234,56" — two decimals, dot as thousands separator, comma as decimal mark. */
export function formatAmountDe(value: Decimal.Value): string {
  const fixed = new Decimal(value).toFixed(2);
  const negative = fixed.startsWith('-');
  const [whole, cents] = (negative ? fixed.slice(1) : fixed).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${negative ? '-' : ''}${grouped},${cents}`;
}

/** "121,50 €", with a no-break space: amount and sign stay on one line. */
export function formatEuroDe(value: Decimal.Value): string {
  return `${formatAmountDe(value)}\u00a0€`;
}

/** YYYY-MM-DD → DD.MM.YYYY; null stays empty. */
export function formatDateDe(isoDate: string | null | undefined): string {
  if (!isoDate) return '';
  const [year, month, day] = isoDate.split('-');
  return `${day}.${month}.${year}`;
}
