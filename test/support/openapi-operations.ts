// The operations the fuzz suite sends requests to: every operation of openapi.json, with its query
// parameters, body types and body fields (references resolved), and the authorization server's endpoints.
import { readFileSync } from 'node:fs';

export type Schema = {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};
type Document = {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Array<{ in: string; name: string; $ref?: string }>; requestBody?: { content: Record<string, { schema: Schema }> } }
    >
  >;
};

export interface Operation {
  method: string;
  path: string;
  query: string[];
  bodyTypes: string[];
  fields: Record<string, Schema>;
  /** The authorization server's endpoints answer errors per RFC 6749 (JSON) or as HTML pages. */
  oauth: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const OAUTH_QUERY = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'];
const OAUTH_FORM = [
  ...OAUTH_QUERY,
  'decision',
  'email',
  'password',
  'grant_type',
  'code',
  'client_secret',
  'refresh_token',
  'code_verifier',
];
const asFields = (names: string[]): Record<string, Schema> => Object.fromEntries(names.map((name) => [name, { type: 'string' }]));

/** Every operation of openapi.json, plus the authorization server's endpoints the document leaves out. */
export function loadOperations(file = 'openapi.json'): { document: Document; operations: Operation[] } {
  const document = JSON.parse(readFileSync(file, 'utf8')) as Document;
  const deref = <T>(value: T & { $ref?: string }): T =>
    value.$ref
      ? (value.$ref
          .split('/')
          .slice(1)
          .reduce(
            (at: Record<string, unknown>, key) => at[key] as Record<string, unknown>,
            document as unknown as Record<string, unknown>,
          ) as T)
      : value;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    // The OAuth endpoints are listed below with the fields their fuzzing uses and their own error rules.
    if (path.startsWith('/oauth/')) continue;
    for (const method of METHODS.filter((m) => item[m])) {
      const op = item[method];
      const content = op.requestBody ? deref(op.requestBody).content : {};
      const schema = Object.values(content)[0]?.schema;
      const fields = schema ? (flatten(schema, deref).properties ?? {}) : {};
      const query = (op.parameters ?? [])
        .map((p) => deref(p))
        .filter((p) => p.in === 'query')
        .map((p) => p.name);
      operations.push({ method, path, query, bodyTypes: Object.keys(content), fields, oauth: false });
    }
  }
  operations.push(
    { method: 'get', path: '/oauth/authorize', query: OAUTH_QUERY, bodyTypes: [], fields: {}, oauth: true },
    {
      method: 'post',
      path: '/oauth/authorize',
      query: [],
      bodyTypes: ['application/x-www-form-urlencoded'],
      fields: asFields(OAUTH_FORM),
      oauth: true,
    },
    {
      method: 'post',
      path: '/oauth/token',
      query: [],
      bodyTypes: ['application/x-www-form-urlencoded'],
      fields: asFields(OAUTH_FORM),
      oauth: true,
    },
  );
  return { document, operations };
}

/** A schema with its references and compositions resolved into one level of properties (deeper on demand). */
function flatten(schema: Schema, deref: <T>(value: T & { $ref?: string }) => T): Schema {
  const resolved = deref(schema);
  const parts = [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])].map((part) => flatten(part, deref));
  const properties: Record<string, Schema> = { ...resolved.properties };
  for (const part of parts) Object.assign(properties, part.properties);
  for (const [name, value] of Object.entries(properties))
    properties[name] = value.$ref || value.allOf || value.items ? flatten(value, deref) : value;
  if (resolved.items) return { ...resolved, properties, items: flatten(resolved.items, deref) };
  return { ...resolved, properties };
}
