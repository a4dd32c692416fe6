// The policy form's field errors in the page's language. The API's validation answers in English
// ("grace_days must not be greater than 90"); the form shows the same rule as a sentence from the
// catalogue, and a message it does not know as the API wrote it.
import type { Lang } from '../i18n.js';
import type { FieldErrors } from './dunning-pages.js';

/** The API's message (after the field's name) → the catalogue key under dunning.policy.errors, with its values. */
const KNOWN: Array<[RegExp, string]> = [
  [/ must not be greater than (?<limit>-?\d+)$/, 'max'],
  [/ must not be less than (?<limit>-?\d+)$/, 'min'],
  [/ must be an integer number$/, 'integer'],
  [/ must be a non-negative amount with at most two decimals$/, 'amount'],
  [/ must be shorter than or equal to (?<limit>\d+) characters$/, 'tooLong'],
  [/ must be a time HH:MM$/, 'time'],
  [/ must be a boolean value$/, 'choice'],
  [/ must be one of /, 'choice'],
];

/** One field's message in the page's language (unknown messages as sent). */
export function policyFieldError(lang: Lang, message: string): string {
  for (const [pattern, key] of KNOWN) {
    const match = pattern.exec(message);
    if (match) return lang.t(`dunning.policy.errors.${key}`, { limit: match.groups?.limit });
  }
  return message;
}

/** The form's field errors in the page's language. */
export function policyFieldErrors(lang: Lang, errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, policyFieldError(lang, message)]));
}
