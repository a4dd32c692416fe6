// Property schemas for the response schemas: the wire formats of DESIGN.md (prefixed ids, decimal
// strings, YYYY-MM-DD dates, datetimes with offset) stated once, so every schema states them alike.
// Each keeps its literal types (`nullable: true`, the enum's values), which `Wire<…>` turns into the
// serializer's type (src/openapi/schema.ts).
import type { IdPrefix } from '../common/ids.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const EXAMPLE_UUID = '3f2b8c1e-6a4d-4e0b-9c57-2d8e1f0a7b64';

interface Extra {
  readonly description?: string;
  readonly example?: unknown;
  readonly nullable?: boolean;
}

type Options<E extends Extra> = Omit<E, 'nullable'> & (E extends { nullable: true } ? { nullable: true } : unknown);

/** `nullable` only where it is true, so that the document does not say `nullable: false` everywhere. */
const optionsOf = <E extends Extra>({ nullable, ...extra }: E): Options<E> => ({ ...extra, ...(nullable ? { nullable } : {}) }) as Options<E>;

/** `<prefix>-<uuid>`, the public id of a record. */
export const idProperty = (prefix: IdPrefix, description: string) =>
  ({ type: 'string', description, pattern: `^${prefix}-${UUID}$`, example: `${prefix}-${EXAMPLE_UUID}` }) as const;

export const textProperty = <const E extends Extra = {}>(extra: E = {} as E) => ({ type: 'string' as const, ...optionsOf(extra) });

/** The client's own id: unique per company, compared case-insensitively. */
export const externalIdProperty = () =>
  ({ type: 'string', nullable: true, example: 'ERP-4711', description: 'The client’s id (unique per company, case-insensitive)' }) as const;

/** An exact decimal as a JSON string: the shortest form with at least one fractional digit. */
export const decimalProperty = <const E extends Extra = {}>(extra: E = {} as E) => ({
  type: 'string' as const,
  format: 'decimal',
  pattern: '^-?\\d+\\.\\d+$',
  example: '119.0',
  ...optionsOf(extra),
});

export const dateProperty = <const E extends Extra = {}>(extra: E = {} as E) => ({
  type: 'string' as const,
  format: 'date',
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  example: '2026-11-21',
  ...optionsOf(extra),
});

/** Seconds precision with the company's UTC offset, never `Z` or milliseconds. */
export const dateTimeProperty = <const E extends Extra = {}>(extra: E = {} as E) => ({
  type: 'string' as const,
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{2}:\\d{2}$',
  example: '2026-11-21T20:53:00+01:00',
  ...optionsOf(extra),
});

/** A page of the service's own web front end. */
export const serviceUrlProperty = (path: string, prefix: IdPrefix) =>
  ({
    type: 'string',
    format: 'uri',
    description: `<PUBLIC_URL>/${path}/<id>: the record in the web front end`,
    example: `https://receivables.example.com/${path}/${prefix}-${EXAMPLE_UUID}`,
  }) as const;

type EnumOf<V extends readonly (string | number)[], E extends Extra> = {
  type: V[number] extends number ? 'integer' : 'string';
  enum: readonly (E extends { nullable: true } ? V[number] | null : V[number])[];
} & Options<E>;

/** One of the values; a nullable enum lists null too, so that validators accept it. */
export const enumProperty = <const V extends readonly (string | number)[], const E extends Extra = {}>(values: V, extra: E = {} as E) =>
  ({ type: typeof values[0] === 'number' ? 'integer' : 'string', enum: extra.nullable ? [...values, null] : [...values], ...optionsOf(extra) }) as EnumOf<V, E>;

export const integerProperty = <const E extends Extra & { minimum?: number; maximum?: number } = {}>(extra: E = {} as E) => ({
  type: 'integer' as const,
  ...optionsOf(extra),
});

export const booleanProperty = <const E extends Extra = {}>(extra: E = {} as E) => ({ type: 'boolean' as const, ...optionsOf(extra) });

/** An object whose members the schema does not list. */
export const freeObjectProperty = <const E extends Extra = {}>(extra: E = {} as E) => ({
  type: 'object' as const,
  additionalProperties: true as const,
  ...optionsOf(extra),
});
