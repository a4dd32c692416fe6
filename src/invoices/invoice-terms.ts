// Invoice date, due date and time for payment: each can be derived from the other two.
import { addDays, daysBetween } from '../common/calendar-date.js';
import type { FieldError } from '../common/errors.js';

export const DEFAULT_TIME_FOR_PAYMENT = 14;

export interface Terms {
  invoiceDate: string | null;
  dueDate: string | null;
  timeForPayment: number | null;
}

export interface ResolvedTerms {
  invoiceDate: string;
  dueDate: string;
  timeForPayment: number;
}

/**
 * Fills what is missing: the invoice date is due date minus time for payment when both are given,
 * else today; the due date follows from the time for payment (14 days when neither is given) and
 * vice versa. Contradictions are field errors.
 */
export function resolveTerms(given: Terms, today: string): { terms?: ResolvedTerms; errors: FieldError[] } {
  const { dueDate: givenDue, timeForPayment: givenDays } = given;
  const invoiceDate = given.invoiceDate ?? (givenDue !== null && givenDays !== null ? addDays(givenDue, -givenDays) : today);
  let { dueDate, timeForPayment } = given;
  if (dueDate === null) {
    timeForPayment ??= DEFAULT_TIME_FOR_PAYMENT;
    dueDate = addDays(invoiceDate, timeForPayment);
  }
  const days = daysBetween(invoiceDate, dueDate);
  if (days < 0) return { errors: [{ field: 'due_date', message: 'due_date must not be before invoice_date' }] };
  if (timeForPayment !== null && timeForPayment !== days) {
    return {
      errors: [{ field: 'time_for_payment', message: `time_for_payment must be ${days}: the days between invoice_date and due_date` }],
    };
  }
  return { terms: { invoiceDate, dueDate, timeForPayment: days }, errors: [] };
}

/**
 * The terms after a change (PATCH). An invoice imported without an invoice date (push, ERP) keeps
 * none unless the change gives one, or gives due date and time for payment to derive it from: its
 * due date is then set as given, and a time for payment alone has no date to count from.
 */
export function resolveChangedTerms(given: Terms, today: string): { terms?: Terms; errors: FieldError[] } {
  if (given.invoiceDate !== null || (given.dueDate !== null && given.timeForPayment !== null)) return resolveTerms(given, today);
  if (given.timeForPayment !== null) {
    return {
      errors: [
        {
          field: 'time_for_payment',
          message: 'time_for_payment counts from invoice_date, which this invoice does not have: send invoice_date or due_date',
        },
      ],
    };
  }
  return { terms: { invoiceDate: null, dueDate: given.dueDate, timeForPayment: null }, errors: [] };
}
