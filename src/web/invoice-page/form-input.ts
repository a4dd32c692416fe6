// A form read through the API's own validation (the global ValidationPipe's rules on the API's DTO), so
// the page accepts exactly what the API accepts; what it refuses comes back per field, for the form.
import type { Type } from '@nestjs/common';
import { AppError } from '../../common/errors.js';
import { createValidationPipe } from '../../common/validation.js';

const pipe = createValidationPipe();

export type FormValues = Record<string, string>;
/** The field errors of a refused form, by field name: the API's message. */
export type FieldErrors = Record<string, string>;

export type Parsed<T> = { ok: true; dto: T } | { ok: false; errors: FieldErrors };

/** The posted text fields (a checkbox is "true" when ticked), without the CSRF token. */
export function formValues(body: unknown, fields: readonly string[]): FormValues {
  const source = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const values: FormValues = {};
  for (const field of fields) {
    const value = source[field];
    if (typeof value === 'string') values[field] = value;
  }
  return values;
}

export async function parseForm<T extends object>(dto: Type<T>, values: object): Promise<Parsed<T>> {
  try {
    return { ok: true, dto: (await pipe.transform({ ...values }, { type: 'body', metatype: dto })) as T };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'validation.failed') throw error;
    return { ok: false, errors: Object.fromEntries(error.errors.map((e) => [e.field, e.message])) };
  }
}
