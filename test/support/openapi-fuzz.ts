// Malformed requests for any operation of the OpenAPI document, as plain data (so that fast-check can
// print and shrink them): wrong types, huge and deep values, control and bidi characters, malformed JSON
// and multipart, bracket-name abuse in forms and query strings, `__proto__`, extreme pagination, path
// parameters with control characters and wrong prefixes. `$name` in a path or value stands for the id of
// a real record (see the suite's setup), filled in when the request is sent.
import fc from 'fast-check';
import { type Operation, type Schema } from './openapi-operations.js';

export interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  auth: 'token' | 'apikey' | 'none' | 'garbage' | 'other_company';
  headers: Record<string, string>;
  contentType?: string;
  body?: string;
}

const REFS = ['$customer', '$contact', '$invoice', '$payment', '$other_customer', '$oauth_application', '$api_key'];

export const nastyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 256, max: 5000 }), fc.constantFrom('x', 'ä', '😀', '\u202e', '[')).map(([n, c]) => c.repeat(n)),
  },
  { weight: 2, arbitrary: fc.constantFrom(...REFS) },
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\u0001',
      '\u001b[31m',
      '\u007f',
      '\u0085',
      'K-\u202e1001',
      'x\u2066y\u2069',
      '\ud800',
      '\ufeff',
      '\r\n',
      '\t',
      '0',
      '-1',
      '1e309',
      '-1e309',
      '99999999999',
      '9007199254740993',
      '1e-400',
      '0x10',
      'NaN',
      'Infinity',
      '1.005',
      '-0',
      '00012',
      'true',
      'false',
      'null',
      'undefined',
      '[]',
      '{}',
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      '%',
      '%00',
      '%zz',
      '../../etc/passwd',
      "' OR 1=1 --",
      '2026-02-30',
      '9999-12-31',
      '0000-00-00',
      '2026-13-01T25:61:61Z',
      'cus-00000000-0000-4000-8000-000000000000',
      'inv-',
      'con-zzz',
      'pay-00000000-0000-4000-8000-00000000000g',
      'a'.repeat(300),
      'DE',
      'EUR',
      'draft',
      'email',
      'post',
      'push',
      'code',
      'authorization_code',
      'refresh_token',
      'allow',
      'S256',
      'https://erp.example.com/cb',
      'javascript:alert(1)',
      '<script>x</script>',
    ),
  },
);

/** A JSON or form value: text, number, boolean, null, list or object (keys may repeat). */
export type Tree = string | number | boolean | null | Tree[] | { entries: Array<[string, Tree]> };

const junkKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  '',
  'id',
  'company_id',
  'a[b]',
  '0',
  'length',
  'toString',
  'hasOwnProperty',
  '\u0000',
  'x\u202e',
);
const key = (names: string[]) =>
  names.length
    ? fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...names) },
        { weight: 1, arbitrary: junkKey },
        { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
      )
    : fc.oneof(junkKey, fc.string({ maxLength: 8 }));

const { tree } = fc.letrec<{ tree: Tree; leaf: Tree }>((tie) => ({
  leaf: fc.oneof(
    { weight: 6, arbitrary: nastyText },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    { weight: 1, arbitrary: fc.constantFrom<Tree>(true, false, null, 0, -1, 1e308, 99999999999) },
  ),
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 8, arbitrary: tie('leaf') },
    { weight: 1, arbitrary: fc.array(tie('tree'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.array(fc.tuple(key([]), tie('tree')), { maxLength: 4 }).map((entries) => ({ entries })) },
  ),
}));

/** A value of the schema's type most of the time, a wrong or nasty one otherwise. */
function valueFor(schema: Schema, depth = 0): fc.Arbitrary<Tree> {
  const wrong = { weight: 2, arbitrary: tree };
  if (schema.enum?.length) return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...(schema.enum as Tree[])) }, wrong);
  if (schema.type === 'integer' || schema.type === 'number')
    return fc.oneof({ weight: 3, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })) }, wrong);
  if (schema.type === 'boolean') return fc.oneof({ weight: 3, arbitrary: fc.boolean() }, wrong);
  if (schema.type === 'array' && schema.items && depth < 3)
    return fc.oneof({ weight: 3, arbitrary: fc.array(valueFor(schema.items, depth + 1), { maxLength: 3 }) }, wrong);
  if (schema.properties && Object.keys(schema.properties).length && depth < 3)
    return fc.oneof({ weight: 3, arbitrary: objectFor(schema.properties, depth + 1) }, wrong);
  return fc.oneof({ weight: 3, arbitrary: nastyText }, wrong);
}

function objectFor(fields: Record<string, Schema>, depth = 0): fc.Arbitrary<Tree> {
  const names = Object.keys(fields);
  const entry = key(names).chain((name) =>
    (fields[name] && Object.hasOwn(fields, name) ? valueFor(fields[name], depth) : tree).map((value): [string, Tree] => [name, value]),
  );
  return fc.array(entry, { maxLength: 8 }).map((entries) => ({ entries }));
}

/** JSON text of a tree, written by hand: duplicate keys and `__proto__` stay as generated. */
export function toJson(value: Tree): string {
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Form pairs with bracket names (`a[b][c]=`, `a[]=`), as form clients encode nested values. */
export function toPairs(value: Tree, name = ''): Array<[string, string]> {
  if (Array.isArray(value)) return value.flatMap((item) => toPairs(item, `${name}[]`));
  if (value !== null && typeof value === 'object') return value.entries.flatMap(([k, v]) => toPairs(v, name ? `${name}[${k}]` : k));
  return [[name, value === null ? '' : String(value)]];
}

/** Percent-encoding that keeps a lone surrogate as its (invalid UTF-8) bytes instead of throwing. */
export function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text
      .split(/([\ud800-\udfff])/)
      .map((part) => (part.length === 1 && /[\ud800-\udfff]/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
      .join('');
  }
}

const encodePairs = (pairs: Array<[string, string]>) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');

/** Names that form and query parsers turn into nested objects, arrays or prototype writes. */
const bracketAbuse: fc.Arbitrary<Array<[string, string]>> = fc.oneof(
  fc.integer({ min: 2, max: 60 }).map((n): Array<[string, string]> => [[`a${'[b]'.repeat(n)}`, 'x']]),
  fc.constantFrom<Array<[string, string]>>(
    [['a[]', '']],
    [['__proto__[x]', '1']],
    [
      ['__proto__[polluted]', 'yes'],
      ['constructor[prototype][polluted]', 'yes'],
    ],
    [['constructor[prototype]', 'x']],
    [['a[9999999]', 'x']],
    [
      ['a[0]', 'x'],
      ['a[x]', 'y'],
    ],
    [
      ['a', 'x'],
      ['a[b]', 'y'],
    ],
    [['[]', 'x']],
    [['a]b[', 'x']],
    [
      ['page[]', '1'],
      ['per_page[$gt]', '1'],
    ],
  ),
  fc.integer({ min: 990, max: 1200 }).map((n): Array<[string, string]> => Array.from({ length: n }, (_, i) => [`k${i}`, 'v'])),
);

/**
 * Node answers a request line or headers over 16 KiB itself (a bare 431, before the app sees it), so
 * paths and query strings stay below that; huge values go into bodies.
 */
const underHeaderLimit = (text: string) => text.slice(0, 6000);

const PAGES = ['0', '-1', '1e309', '99999999999', '1.5', 'abc', '', '%00', '9007199254740993', '1', '2'];
const PER_PAGES = ['0', '101', 'abc', '-5', '1e309', '100', '1', '', '99999999999'];

function queryFor(op: Operation): fc.Arbitrary<string> {
  const pair = (name: string): fc.Arbitrary<[string, string]> => {
    if (name === 'page') return fc.constantFrom(...PAGES).map((v) => [name, v]);
    if (name === 'per_page') return fc.constantFrom(...PER_PAGES).map((v) => [name, v]);
    return fc.oneof(nastyText, fc.constantFrom('2026-01-01', '2026-01-01T00:00:00Z', 'invoice', 'open')).map((v) => [name, v]);
  };
  const declared = op.query.length ? fc.array(fc.constantFrom(...op.query).chain(pair), { maxLength: 5 }) : fc.constant([]);
  return fc
    .tuple(declared, fc.array(fc.tuple(key(op.query), nastyText), { maxLength: 2 }), fc.option(bracketAbuse, { freq: 4 }))
    .map(([a, b, c]) =>
      underHeaderLimit(
        encodePairs([...a, ...b, ...(c ?? []).slice(0, 400)])
          .replace(/%5B/g, '[')
          .replace(/%5D/g, ']'),
      ),
    );
}

const BOUNDARY = 'fuzzboundary';
const part = (name: string, value: string, file = false) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="r.pdf"\r\nContent-Type: application/pdf' : ''}\r\n\r\n${value}\r\n`;

function multipartFor(op: Operation): fc.Arbitrary<{ contentType: string; body: string }> {
  const fields = fc.array(
    fc.oneof(
      fc.tuple(key(Object.keys(op.fields)), nastyText),
      bracketAbuse.map((pairs) => pairs[0]),
    ),
    { maxLength: 6 },
  );
  const file = fc.constantFrom(
    '',
    '%PDF-1.4\n%%EOF',
    '%PDF-1.7\n1 0 obj <</Type/Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF',
    'not a pdf',
    '%PDF-' + 'x'.repeat(3000),
  );
  const wellFormed = fc
    .tuple(fields, fc.option(file), fc.constantFrom('invoice', 'invoice_attachment', 'other', 'invoice'))
    .map(
      ([pairs, pdf, fileField]) =>
        `${pairs.map(([k, v]) => part(k, v)).join('')}${pdf === null ? '' : part(fileField, pdf, true)}--${BOUNDARY}--\r\n`,
    );
  const broken = fc.constantFrom(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="total"\r\n\r\n100`,
    `--${BOUNDARY}\r\n\r\nno headers\r\n--${BOUNDARY}--\r\n`,
    `--other\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--other--\r\n`,
    `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="invoice"; filename="a.pdf"\r\n\r\n%PDF-1.4`,
    `--${BOUNDARY}--\r\n`,
    '',
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="\u0000"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
  );
  const type = fc.constantFrom(
    `multipart/form-data; boundary=${BOUNDARY}`,
    `multipart/form-data; boundary=${BOUNDARY}`,
    'multipart/form-data',
    'multipart/form-data; boundary=',
  );
  return fc
    .tuple(type, fc.oneof({ weight: 3, arbitrary: wellFormed }, { weight: 1, arbitrary: broken }))
    .map(([contentType, body]) => ({ contentType, body }));
}

/** `{"a":{"a":…}}` or `[[[…]]]` nested `depth` levels deep, as text (JSON.stringify itself would recurse). */
export const deepJson = (depth: number, array = false) =>
  array ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** A plain JSON value as a tree. */
export const asTree = (value: unknown): Tree =>
  Array.isArray(value)
    ? value.map(asTree)
    : value !== null && typeof value === 'object'
      ? { entries: Object.entries(value).map(([k, v]) => [k, asTree(v)]) }
      : (value as Tree);

/** A valid body with one or two fields changed: reaches the service and the database, not only validation. */
function nearlyValid(op: Operation, base: Record<string, unknown>): fc.Arbitrary<{ contentType: string; body: string }> {
  const change = key(Object.keys(op.fields)).chain((name) =>
    (Object.hasOwn(op.fields, name) ? valueFor(op.fields[name]) : tree).map((value): [string, Tree] => [name, value]),
  );
  const form = op.bodyTypes.includes('application/x-www-form-urlencoded');
  return fc.tuple(fc.array(change, { minLength: 1, maxLength: 2 }), fc.boolean()).map(([changes, asForm]) => {
    const entries = [
      ...(asTree(base) as { entries: Array<[string, Tree]> }).entries.filter(([name]) => !changes.some(([changed]) => changed === name)),
      ...changes,
    ];
    if (form && asForm) return { contentType: 'application/x-www-form-urlencoded', body: encodePairs(toPairs({ entries })) };
    return { contentType: 'application/json', body: toJson({ entries }) };
  });
}

function bodyFor(op: Operation, base?: Record<string, unknown>): fc.Arbitrary<{ contentType?: string; body?: string }> {
  const json = 'application/json';
  const fields = objectFor(op.fields);
  return fc.oneof(
    { weight: base ? 6 : 0, arbitrary: base ? nearlyValid(op, base) : fc.constant({}) },
    { weight: 2, arbitrary: fc.constant({}) },
    { weight: 5, arbitrary: fc.oneof(fields, tree).map((value) => ({ contentType: json, body: toJson(value) })) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constantFrom(
            '{',
            '{"a":',
            '[1,2',
            'nul',
            '{"a":1}}',
            '\u0000',
            '"text"',
            '123',
            'null',
            '[]',
            '{"__proto__":{"polluted":1}}',
            '{"constructor":{"prototype":{"polluted":1}}}',
            '{"a":1,"a":2}',
            '\ufeff{}',
          ),
          fc.string({ unit: 'binary', maxLength: 40 }),
        )
        .map((body) => ({ contentType: json, body })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(33, 100, 3000, 20000), fc.boolean())
        .map(([depth, array]) => ({ contentType: json, body: deepJson(depth, array) })),
    },
    {
      weight: 3,
      arbitrary: fc.tuple(fields, fc.option(bracketAbuse, { freq: 2 })).map(([value, abuse]) => ({
        contentType: 'application/x-www-form-urlencoded',
        body: encodePairs([...toPairs(value), ...(abuse ?? [])]),
      })),
    },
    { weight: 2, arbitrary: multipartFor(op) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { contentType: 'text/plain', body: 'hello' },
        { contentType: 'application/xml', body: '<a/>' },
        { contentType: 'application/json; charset=utf-16', body: '{}' },
        { contentType: 'application/x-www-form-urlencoded', body: '%zz=%%&a=%E0%A4%A' },
        { contentType: 'application/json', body: `{"a":"${'x'.repeat(1100 * 1024)}"}` },
        { contentType: 'application/merge-patch+json', body: '{"name":null}' },
      ),
    },
  );
}

/** A path parameter: a real id (`$…`), a well-formed unknown one, a wrong prefix, control characters, junk. */
const pathValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('$') },
  { weight: 1, arbitrary: fc.constantFrom('$other_customer', '$customer', '$invoice', '$contact') },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('cus', 'con', 'inv', 'pay', 'key', 'app', 'erp', 'run', 'doc', 'xyz', ''), fc.uuid())
      .map(([p, u]) => (p ? `${p}-${u}` : u)),
  },
  { weight: 3, arbitrary: nastyText.map((text) => underHeaderLimit(encode(text))) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('%zz', '%', '%E0%A4%A', '..', '.', '%2e%2e', 'a%2Fb', '%00', '%01', '%E2%80%AE', 'x'.repeat(2000)),
  },
);

const authOf = fc.constantFrom<FuzzRequest['auth']>(
  'token',
  'token',
  'token',
  'token',
  'token',
  'apikey',
  'apikey',
  'none',
  'garbage',
  'other_company',
);
const headersOf = fc
  .record(
    {
      'Idempotency-Key': fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 10 }), fc.constant('k'.repeat(300))),
      'X-Request-ID': fc.string({ unit: 'binary-ascii', maxLength: 300 }),
    },
    { requiredKeys: [] },
  )
  .map((headers) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace(/[^\x20-\x7e]/g, '')])));

/** `base`: a valid body of the operation, if it has one, to change a field or two of. */
export function requestFor(op: Operation, base?: Record<string, unknown>): fc.Arbitrary<FuzzRequest> {
  const params = op.path.match(/\{[^}]+\}/g) ?? [];
  const path = fc.array(pathValue, { minLength: params.length, maxLength: params.length }).map((values) => {
    let i = 0;
    return op.path.replace(/\{[^}]+\}/g, () => values[i++]);
  });
  const body = op.bodyTypes.length
    ? bodyFor(op, base)
    : fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: bodyFor(op) });
  return fc
    .record({
      method: fc.constant(op.method),
      path,
      query: fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 2, arbitrary: queryFor(op) }),
      auth: authOf,
      headers: headersOf,
      body,
    })
    .map(({ body: b, ...rest }) => ({ ...rest, ...b }));
}

/** Requests every run sends first, whatever the seed: the shapes that caused 500s before. */
export function fixedExamples(op: Operation): FuzzRequest[] {
  const path = op.path.replace(/\{[^}]+\}/g, '$');
  const base = { method: op.method, path, query: '', auth: 'token' as const, headers: {} };
  const nul = op.query.map((name) => `${name}=%00`).join('&');
  return [
    { ...base, contentType: 'application/json', body: deepJson(3000) },
    {
      ...base,
      query: nul || 'x=%00',
      contentType: 'application/json',
      body: toJson({ entries: Object.keys(op.fields).map((name): [string, Tree] => [name, 'a\u0000b']) }),
    },
    { ...base, path: op.path.replace(/\{[^}]+\}/g, '%00'), query: 'page=1e309&per_page=101' },
    {
      ...base,
      contentType: 'application/x-www-form-urlencoded',
      body: `__proto__[x]=1&constructor[prototype][y]=2&a${'[b]'.repeat(40)}=3`,
    },
    {
      ...base,
      auth: 'none',
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nx`,
    },
  ];
}
