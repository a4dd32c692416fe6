// A speed trick for formatDecimal (money.ts): a numeric as PostgreSQL writes it ("119.50", "-3.10", "0.00")
// gets its wire form by cutting trailing zeros off the text, without a decimal.js object. An invoice on the
// wire formats a dozen amounts, its reminders five each: on a page of 25 invoices that was some 400
// Decimals built only to be printed again (invoices-read bench, CPU profile: decimal.js's parser and
// constructor 3 % of the service's CPU, and their garbage). Anything else goes the exact way.
// src/common/money.spec.ts checks the two ways agree.

/** PostgreSQL's numeric output: no exponent, no leading zeros, no plus sign. */
const CANONICAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
/** A negative zero, which decimal.js prints without its sign. */
const NEGATIVE_ZERO = /^-0(?:\.0+)?$/;

/** The shortest form with at least one fractional digit, or undefined when the text is not canonical. */
export function shortDecimalText(text: string): string | undefined {
  if (!CANONICAL.test(text) || NEGATIVE_ZERO.test(text)) return undefined;
  const point = text.indexOf('.');
  if (point < 0) return `${text}.0`;
  let end = text.length;
  while (end > point + 2 && text.charCodeAt(end - 1) === 48 /* 0 */) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** PostgreSQL's zero of a numeric column ("0", "0.00"): a sum may skip it without building a Decimal. */
const ZERO = /^0(?:\.0+)?$/;

/** Whether the value is a numeric zero as PostgreSQL writes it (other forms of zero answer false). */
export function isZeroText(value: unknown): boolean {
  return typeof value === 'string' && ZERO.test(value);
}
