// Form fields arrive as text: these decorators turn them into typed values, leaving anything else as
// it came so that the validator names the field instead of the value silently becoming something else.
import { Transform } from 'class-transformer';
import { parseCalendarDate } from './calendar-date.js';
import { parseDecimal } from './money.js';

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

export function toBoolean(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (TRUE.has(text)) return true;
    if (FALSE.has(text)) return false;
  }
  return value;
}

export function toInteger(value: unknown): unknown {
  if (typeof value === 'string' && /^-?\d{1,9}$/.test(value.trim())) return Number(value.trim());
  return value;
}

/** Trims text; an empty text becomes null (the field is cleared). */
export function toTrimmedText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  return text === '' ? null : text;
}

export const BooleanField = (): PropertyDecorator => Transform(({ value }) => toBoolean(value));
export const IntegerField = (): PropertyDecorator => Transform(({ value }) => toInteger(value));
export const TextField = (): PropertyDecorator => Transform(({ value }) => toTrimmedText(value));

/** A calendar date: normalised to YYYY-MM-DD when valid, else left as sent for the validator to name. */
export const CalendarDateField = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (value === '' || value === null ? null : (parseCalendarDate(value) ?? value)));

/** A decimal amount: a Decimal when it reads as one ("119,50" too), else left as sent. */
export const DecimalField = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (value === '' || value === null ? null : (parseDecimal(value) ?? value)));
