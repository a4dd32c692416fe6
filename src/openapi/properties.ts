// Property decorators for the response schemas: the wire formats of DESIGN.md (prefixed ids, decimal
// strings, YYYY-MM-DD dates, datetimes with offset) stated once, so every schema states them alike.
import { ApiProperty } from '@nestjs/swagger';
import type { IdPrefix } from '../common/ids.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const EXAMPLE_UUID = '3f2b8c1e-6a4d-4e0b-9c57-2d8e1f0a7b64';

interface Extra {
  description?: string;
  example?: unknown;
  nullable?: boolean;
  /** false: the property is left out where it does not apply. */
  required?: boolean;
}

/** `nullable` only where it is true, so that the document does not say `nullable: false` everywhere. */
const optionsOf = <T extends Extra>({ nullable, ...extra }: T): Omit<T, 'nullable'> & Extra => ({ ...extra, ...(nullable ? { nullable } : {}) });

/** `<prefix>-<uuid>`, the public id of a record. */
export const IdProperty = (prefix: IdPrefix, description: string) =>
  ApiProperty({ type: String, description, pattern: `^${prefix}-${UUID}$`, example: `${prefix}-${EXAMPLE_UUID}` });

export const TextProperty = (extra: Extra = {}) => ApiProperty({ type: String, ...optionsOf(extra) });

/** The client's own id: unique per company, compared case-insensitively. */
export const ExternalIdProperty = () =>
  ApiProperty({ type: String, nullable: true, example: 'ERP-4711', description: 'The client’s id (unique per company, case-insensitive)' });

/** An exact decimal as a JSON string: the shortest form with at least one fractional digit. */
export const DecimalProperty = (extra: Extra = {}) =>
  ApiProperty({ type: String, format: 'decimal', pattern: '^-?\\d+\\.\\d+$', example: '119.0', ...optionsOf(extra) });

export const DateProperty = (extra: Extra = {}) =>
  ApiProperty({ type: String, format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', example: '2026-11-21', ...optionsOf(extra) });

/** Seconds precision with the company's UTC offset, never `Z` or milliseconds. */
export const DateTimeProperty = (extra: Extra = {}) =>
  ApiProperty({
    type: String,
    format: 'date-time',
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{2}:\\d{2}$',
    example: '2026-11-21T20:53:00+01:00',
    ...optionsOf(extra),
  });

/** A page of the service's own web front end. */
export const ServiceUrlProperty = (path: string, prefix: IdPrefix) =>
  ApiProperty({
    type: String,
    format: 'uri',
    description: `<PUBLIC_URL>/${path}/<id>: the record in the web front end`,
    example: `https://receivables.example.com/${path}/${prefix}-${EXAMPLE_UUID}`,
  });

/** One of the values; a nullable enum lists null too, so that validators accept it. */
export const EnumProperty = (values: readonly (string | number)[], extra: Extra = {}) =>
  ApiProperty({
    type: typeof values[0] === 'number' ? 'integer' : 'string',
    enum: extra.nullable ? [...values, null] : [...values],
    ...optionsOf(extra),
  });

export const IntegerProperty = (extra: Extra & { minimum?: number; maximum?: number } = {}) =>
  ApiProperty({ type: 'integer', ...optionsOf(extra) });

export const BooleanProperty = (extra: Extra = {}) => ApiProperty({ type: Boolean, ...optionsOf(extra) });
