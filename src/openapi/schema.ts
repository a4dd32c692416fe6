// Response schemas as plain JSON-schema objects (OpenAPI 3.0: `nullable`), declared next to the
// serializer that produces them. `Wire<typeof S>` is the TypeScript type of a value the schema
// describes, so a serializer annotated with it cannot send a field the schema lacks, leave out a
// required one or send a value of another type: the compiler checks what a test used to compare.
// A schema made with `component(name, …)` is a named component: wherever it is nested, the document
// shows a `$ref` to it (src/openapi/document.ts collects them).

interface Described {
  readonly description?: string;
  readonly example?: unknown;
  readonly nullable?: true;
}

export interface ScalarSchema extends Described {
  readonly type: 'string' | 'integer' | 'number' | 'boolean';
  readonly enum?: readonly (string | number | null)[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
}

export interface ArraySchema extends Described {
  readonly type: 'array';
  readonly items: JsonSchema;
}

export interface ObjectSchema extends Described {
  readonly type: 'object';
  readonly properties?: { readonly [key: string]: JsonSchema };
  readonly required?: readonly string[];
  /** true: a free object; false: always empty. */
  readonly additionalProperties?: boolean;
}

/** A component nested with a description or as nullable: `allOf` with the component alone. */
export interface WrappedSchema extends Described {
  readonly type: 'object';
  readonly allOf: readonly [ObjectSchema];
}

export type JsonSchema = ScalarSchema | ArraySchema | ObjectSchema | WrappedSchema;

type OrNull<S, T> = S extends { nullable: true } ? T | null : T;

type Flat<T> = { [K in keyof T]: T[K] } & {};

type ObjectOf<P, R extends PropertyKey> = Flat<
  { -readonly [K in keyof P & R]: Wire<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: Wire<P[K]> }
>;

/** The TypeScript type of the JSON a schema describes. */
export type Wire<S> = S extends { allOf: readonly [infer Inner] }
  ? OrNull<S, Wire<Inner>>
  : S extends { enum: readonly (infer Value)[] }
    ? OrNull<S, Value>
    : S extends { type: 'string' }
      ? OrNull<S, string>
      : S extends { type: 'integer' | 'number' }
        ? OrNull<S, number>
        : S extends { type: 'boolean' }
          ? OrNull<S, boolean>
          : S extends { type: 'array'; items: infer Items }
            ? OrNull<S, Wire<Items>[]>
            : S extends { type: 'object'; properties: infer Properties }
              ? OrNull<S, ObjectOf<Properties, S extends { required: readonly (infer R extends PropertyKey)[] } ? R : never>>
              : S extends { type: 'object'; additionalProperties: false }
                ? Record<string, never>
                : S extends { type: 'object'; additionalProperties: true }
                  ? OrNull<S, object>
                  : never;

type Properties = { readonly [key: string]: JsonSchema };

export interface Component<P extends Properties, Required extends string> extends ObjectSchema {
  readonly properties: P;
  readonly required: readonly Required[];
}

const NAMES = new WeakMap<object, string>();

/**
 * A named object schema; every property is required unless listed in `optional` (left out where it
 * does not apply). The properties keep their order: the document lists them as the serializer sends them.
 */
export function component<const P extends Properties, const Optional extends keyof P = never>(
  name: string,
  properties: P,
  options: { description?: string; optional?: readonly Optional[] } = {},
): Component<P, Extract<Exclude<keyof P, Optional>, string>> {
  const optional: readonly PropertyKey[] = options.optional ?? [];
  const required = Object.keys(properties).filter((key) => !optional.includes(key)) as Extract<Exclude<keyof P, Optional>, string>[];
  const schema = { type: 'object' as const, ...(options.description ? { description: options.description } : {}), properties, required };
  NAMES.set(schema, name);
  return schema;
}

/** A component nested as nullable or with a description of its own. */
export const wrapped = <const S extends ObjectSchema, const E extends Omit<Described, 'example'>>(schema: S, extra: E) =>
  ({ type: 'object', allOf: [schema], ...extra }) as { type: 'object'; allOf: readonly [S] } & E;

/** `NoInfer`: without `extra`, E must stay empty rather than be taken from where the result goes. */
export const arrayOf = <const S extends JsonSchema, const E extends Omit<Described, 'example'> = Record<never, never>>(
  items: S,
  extra?: E,
) => ({ type: 'array', items, ...extra }) as { type: 'array'; items: S } & NoInfer<E>;

/** The path the document refers to a component by. */
export function schemaRef(schema: ObjectSchema): { $ref: string } {
  const name = NAMES.get(schema);
  if (!name) throw new Error('Only a component (made with component()) can be referred to');
  return { $ref: `#/components/schemas/${name}` };
}

type OpenApiSchema = { [key: string]: unknown };

/**
 * A nullable component is written `oneOf: [$ref, NULL_ONLY]`: in OpenAPI 3.0.3 `nullable` widens only
 * the `type` beside it, so `allOf: [$ref]` with `nullable: true` would still refuse null in a strict
 * validator; this schema is null and nothing else.
 */
const NULL_ONLY = { type: 'object', nullable: true, enum: [null] };

/** The components the schemas are and nest, by name, each with its nested components as `$ref`s. */
export function openApiComponents(roots: readonly ObjectSchema[]): Record<string, OpenApiSchema> {
  const components: Record<string, OpenApiSchema> = {};
  const sources = new Map<string, object>();
  const visit = (schema: JsonSchema, top = false): OpenApiSchema => {
    const name = NAMES.get(schema);
    if (name && !top) {
      if (sources.get(name) === undefined) {
        sources.set(name, schema);
        components[name] = visit(schema, true);
      } else if (sources.get(name) !== schema) {
        throw new Error(`Two schemas are named ${name}`);
      }
      return schemaRef(schema as ObjectSchema);
    }
    if ('allOf' in schema && schema.nullable) {
      const { allOf, nullable: _nullable, type: _type, ...described } = schema;
      return { ...described, oneOf: [...allOf.map((inner) => visit(inner)), NULL_ONLY] };
    }
    const out: OpenApiSchema = { ...schema };
    if ('items' in schema) out.items = visit(schema.items);
    if ('allOf' in schema) out.allOf = schema.allOf.map((inner) => visit(inner));
    if ('properties' in schema && schema.properties) {
      out.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, value]) => [key, visit(value)]));
    }
    if ('required' in schema && schema.required?.length === 0) delete out.required;
    return out;
  };
  for (const root of roots) visit(root);
  return components;
}
