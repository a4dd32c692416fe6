// Every JSON answer the tests receive is checked against the committed openapi.json: the operation of
// its method and path, the documented status and content type, and that response's schema (Ajv, strict:
// a field the schema does not list is drift too). test/setup/validate-responses.ts applies it to every
// supertest request of every suite; the generated client's test applies it as an openapi-fetch middleware.
import { Ajv, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

type Schema = { [key: string]: unknown };
type Content = Record<string, { schema?: Schema }>;
interface Operation {
  operationId?: string;
  responses: Record<string, { content?: Content }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** ajv-formats is CommonJS: its plugin is the module and, as seen from ESM types, its `default`. */
const addFormats = (formatsPlugin as unknown as { default: (ajv: Ajv) => Ajv }).default;

const DOCUMENT_ID = 'openapi.json';
const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

/**
 * OpenAPI 3.0 → JSON Schema, read as strictly as 3.0.3 says: `nullable: true` widens the `type` beside
 * it and nothing else (a nullable component is `oneOf: [$ref, {type: object, nullable, enum: [null]}]`),
 * the `$ref`s point into the document's components, and an object that lists its properties allows no others.
 */
export function toJsonSchema(schema: Schema): Schema {
  const { nullable, example: _example, ...rest } = schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === '$ref') out.$ref = String(value).replace(COMPONENT_REF, `${DOCUMENT_ID}#/definitions/$1`);
    else if (key === 'properties') out.properties = mapValues(value as Record<string, Schema>, toJsonSchema);
    else if (key === 'items' || key === 'not') out[key] = toJsonSchema(value as Schema);
    else if (key === 'additionalProperties' && typeof value === 'object') out[key] = toJsonSchema(value as Schema);
    else if (['allOf', 'oneOf', 'anyOf'].includes(key)) out[key] = (value as Schema[]).map(toJsonSchema);
    else out[key] = value;
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  // OpenAPI 3.0.3: `nullable` adds null to the `type` beside it, and does nothing without one.
  if (nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

const mapValues = <T, U>(record: Record<string, T>, f: (value: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));

interface Route {
  template: string;
  pattern: RegExp;
  literals: number;
  operations: Record<string, Operation>;
}

export interface Answer {
  method: string;
  /** The path with its query, or a full URL. */
  url: string;
  status: number;
  contentType: string | undefined;
  body: unknown;
  /** Whether the answer had a body at all (a 204 has none). */
  hasBody: boolean;
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;

/**
 * Statuses any route can answer that the document states once, in info.description, rather than per
 * operation: they are checked against the Problem schema. A 2xx or 3xx the operation does not list fails.
 */
const EVERYWHERE = (status: number): boolean =>
  // 4xx: input refused before the handler (a malformed body on a GET, a control character in the path):
  // every error is a problem document. 500: a bug, which a test may provoke on purpose (suites that
  // forbid 5xx say so themselves). 503: the database is away.
  (status >= 400 && status < 500) || status === 500 || status === 503;

export class ResponseValidator {
  private readonly ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
  private readonly routes: Route[];
  private readonly compiled = new Map<object, ValidateFunction>();
  private readonly problem: Schema;

  constructor(private readonly doc: Document) {
    addFormats(this.ajv);
    // The document's own formats: decimal strings (checked by their pattern), file bodies, secrets.
    for (const format of ['decimal', 'binary', 'password']) this.ajv.addFormat(format, true);
    this.ajv.addSchema({ $id: DOCUMENT_ID, definitions: mapValues(doc.components.schemas, toJsonSchema) });
    this.routes = Object.entries(doc.paths)
      .map(([template, operations]) => ({
        template,
        operations,
        literals: template.split('/').filter((part) => part && !part.startsWith('{')).length,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      }))
      // The most literal template wins: /invoices/find/{externalId} before /invoices/{id}/pdf.
      .sort((a, b) => b.literals - a.literals);
    this.problem = { $ref: '#/components/schemas/Problem' };
  }

  static fromFile(path = resolve(process.cwd(), 'openapi.json')): ResponseValidator {
    return new ResponseValidator(JSON.parse(readFileSync(path, 'utf8')) as Document);
  }

  /** What is wrong with the answer by the document, or null. */
  check(answer: Answer): string | null {
    const path = new URL(answer.url, 'http://service.invalid').pathname;
    const method = answer.method.toLowerCase();
    const route = this.routes.find((candidate) => candidate.pattern.test(path) && candidate.operations[method]);
    const type = answer.contentType?.split(';')[0].trim().toLowerCase();
    const isJson = type !== undefined && JSON_TYPE.test(type);
    const where = `${answer.method.toUpperCase()} ${path} → ${answer.status}`;
    // Not an operation of the document: an unknown route, the document itself, a unit test's own small app.
    if (!route) return null;
    const operation = route.operations[method];
    // A suite that reads a download as bytes (a PDF) gets a refusal's problem document as bytes too.
    const body =
      isJson && Buffer.isBuffer(answer.body) && answer.body.length > 0
        ? (JSON.parse(answer.body.toString('utf8')) as unknown)
        : answer.body;
    const label = `${where} (${operation.operationId ?? route.template})`;
    const response = operation.responses[String(answer.status)];
    if (!response) {
      if (EVERYWHERE(answer.status) && type === 'application/problem+json') return this.validate(this.problem, body, label);
      return `${label}: status ${answer.status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`;
    }
    const content = response.content ?? {};
    if (!answer.hasBody) {
      return Object.keys(content).length > 0 && answer.method.toUpperCase() !== 'HEAD'
        ? `${label}: no body, documented ${Object.keys(content).join(', ')}`
        : null;
    }
    const media = type === undefined ? undefined : content[type];
    // A redirect's courtesy text ("Found. Redirecting to …") where the document states no body.
    if (!media && Object.keys(content).length === 0 && !isJson) return null;
    if (!media) return `${label}: sent ${type ?? 'no Content-Type'}, documented ${Object.keys(content).join(', ') || 'no body'}`;
    if (!isJson) return null;
    if (!media.schema) return `${label}: ${type} is documented without a schema`;
    return this.validate(media.schema, body, label);
  }

  private validate(schema: Schema, body: unknown, label: string): string | null {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema));
      this.compiled.set(schema, validate);
    }
    if (validate(body)) return null;
    const errors = (validate.errors ?? []).map((error) => {
      const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
      return `  ${error.instancePath || '/'} ${error.message}${extra}`;
    });
    return `${label}: the body does not match the document:\n${errors.join('\n')}\n${JSON.stringify(body).slice(0, 2000)}`;
  }
}

let shared: ResponseValidator | undefined;

/** One validator per test file, from the committed openapi.json. */
export function responseValidator(): ResponseValidator {
  shared ??= ResponseValidator.fromFile();
  return shared;
}
