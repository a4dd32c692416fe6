// Money is decimal end to end: Postgres numeric in, decimal.js in code, JSON strings out.
import { Decimal } from 'decimal.js';
import { shortDecimalText } from './decimal-text.js';

export { Decimal };

/** Shortest form with at least one fractional digit: "119.0", "12.5", "99.99". */
/** A value gives a string, only a missing one null: serializers' types (checked against their schemas) rely on it. */
export function formatDecimal(value: Decimal.Value): string;
export function formatDecimal(value: Decimal.Value | null | undefined): string | null;
export function formatDecimal(value: Decimal.Value | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const short = typeof value === 'string' ? shortDecimalText(value) : undefined;
  if (short !== undefined) return short;
  const text = new Decimal(value).toFixed();
  return text.includes('.') ? text : `${text}.0`;
}

const INPUT = /^-?\d+([.,]\d+)?$/;

/** Accepts 119.5, "119.50" and "119,50"; undefined when the text is no decimal number. */
export function parseDecimal(input: unknown): Decimal | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? new Decimal(String(input)) : undefined;
  if (typeof input !== 'string') return undefined;
  const text = input.trim();
  if (!INPUT.test(text)) return undefined;
  return new Decimal(text.replace(',', '.'));
}
