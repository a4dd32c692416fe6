// VAT identification numbers (Art. 214 and 215 Directive 2006/112/EC): a country prefix and the national
// format, as the EU's VIES service checks them. Only the form is checked here, not whether the number exists.
import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { OptionalText } from './fields.js';

/** The national part after the two-letter prefix, per member state (EL is Greece, XI Northern Ireland). */
const VAT_ID_FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

/** Upper case without the spaces, dots and hyphens people write into it ("DE 123 456 789"). */
export function normalizeVatId(value: string): string {
  return value.replace(/[\s.-]+/g, '').toUpperCase();
}

/** Whether a (normalised) VAT ID has the format of its country prefix. */
export function isVatId(value: string): boolean {
  const format = VAT_ID_FORMATS[value.slice(0, 2)];
  return format !== undefined && format.test(value.slice(2));
}

/**
 * A German tax number (Steuernummer, § 14 (4) Nr. 2 UStG allows it instead of the VAT ID): the tax office's
 * form ("12/345/67890", "123/456/78901") or the 13-digit federal form, i.e. 10 to 13 digits with the
 * separators the offices print.
 */
export function isTaxNumber(value: string): boolean {
  return /^[\d\s/]+$/.test(value) && /^\d{10,13}$/.test(value.replace(/[\s/]/g, ''));
}

/** An optional VAT ID, normalised before it is checked; empty clears it. */
export const OptionalVatId = () =>
  applyDecorators(
    OptionalText(20, 'DE123456789'),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? normalizeVatId(value) : value)),
    ValidateBy({
      name: 'isVatId',
      validator: {
        validate: (value) => typeof value !== 'string' || isVatId(value),
        defaultMessage: (args) =>
          `${args?.property} must be a VAT ID: a country prefix and its national format, in Germany DE and 9 digits`,
      },
    }),
  );

/** An optional German tax number; empty clears it. */
export const OptionalTaxNumber = () =>
  applyDecorators(
    OptionalText(20, '12/345/67890'),
    ValidateBy({
      name: 'isTaxNumber',
      validator: {
        validate: (value) => typeof value !== 'string' || isTaxNumber(value),
        defaultMessage: (args) => `${args?.property} must be a tax number of 10 to 13 digits ("12/345/67890")`,
      },
    }),
  );
