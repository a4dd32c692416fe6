// Bad input never yields a 5xx and never stores anything: random bodies against the create/update
// endpoints of customers and contacts. Every answer is a 2xx that matches what is stored, or a 4xx
// problem document after which the tables and the target record are exactly as before.
import fc from 'fast-check';
import request, { type Response } from 'supertest';
import {
  api,
  CONTACT_ID,
  CUSTOMER_ID,
  contactParams,
  createContact,
  createCustomer,
  customerParams,
  rowCounts,
  withoutRateLimits,
} from '../support/factories.js';
import {
  type InvoiceApi,
  invoiceApi,
  invoiceSuiteConfig,
  leftoverUploads,
  storedFiles,
  tableCounts,
} from '../support/invoice-factories.js';
import { makePdf } from '../support/pdf.js';
import { registerCompany, type TestCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

/** FUZZ_RUNS=2000 npm test -- test/fuzz for a deeper search; the default keeps the suite fast. */
const RUNS = Number(process.env.FUZZ_RUNS) || 150;
const JSON_RUNS = Math.ceil(RUNS / 2.5);
const TIMEOUT = Math.max(60_000, RUNS * 400);

const CUSTOMER_KEYS = [
  'name',
  'address_line1',
  'address_line2',
  'address_line3',
  'address_line4',
  'zip',
  'city',
  'country_code',
  'phone',
  'customer_number',
  'additional_number',
  'external_id',
  'customer_group_id',
  'stop_automatic_reminders',
  'shipping_mode',
  'note',
];
const CONTACT_KEYS = ['name', 'gender', 'salutation', 'customer_id', 'customer', 'phone', 'external_id', 'email'];
const JUNK_KEYS = [
  'id',
  'company_id',
  'created_at',
  'contacts',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'customer[id]',
  'page',
  '',
];

type FormValue = string | FormValue[] | { [key: string]: FormValue };
type FormBody = Record<string, FormValue>;

/** Encodes nested values with bracket names (`customer[external_id]=…`, `note[]=…`) as form clients do. */
function formEncode(body: FormBody): string {
  const pairs: Array<[string, string]> = [];
  const walk = (value: FormValue, name: string): void => {
    if (typeof value === 'string') pairs.push([name, value]);
    else if (Array.isArray(value)) value.forEach((item) => walk(item, `${name}[]`));
    else for (const [key, item] of Object.entries(value)) walk(item, `${name}[${key}]`);
  };
  for (const [key, value] of Object.entries(body)) walk(value, key);
  return new URLSearchParams(pairs).toString();
}

describe('fuzzing the create and update endpoints', () => {
  let company: TestCompany;
  let client: ReturnType<typeof api>;
  let customerId: string;
  let otherCustomerId: string;
  let contactId: string;

  // Thousands of requests from one credential: lift the rate limits, which are not under test here.
  const t = useTestApp(withoutRateLimits(), { reset: 'manual' });
  beforeAll(async () => {
    company = await registerCompany(t.app, 'Fuzz GmbH');
    client = api(t.app, company);
    customerId = (await createCustomer(t.app, company, { external_id: 'BASE-CUS' })).id;
    otherCustomerId = (await createCustomer(t.app, company, { external_id: 'OTHER-CUS' })).id;
    contactId = (await createContact(t.app, company, customerId, { external_id: 'BASE-CON' })).id;
  });

  const text = fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 20 }) },
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.double().map(String) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.integer({ min: 100, max: 6000 }), fc.constantFrom('x', 'ä', '😀', ' ')).map(([n, c]) => c.repeat(n)),
    },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        ' ',
        'true',
        'false',
        'maybe',
        '0',
        '1',
        '2',
        '3',
        '-1',
        '1.0',
        'DE',
        'de',
        'XX',
        'email',
        'post',
        'dual_shipping',
        'unknown',
        'skip_shipping',
        'BASE-CUS',
        'base-cus',
        'OTHER-CUS',
        'BASE-CON',
        'erika@muster.de',
        'cus-00000000-0000-4000-8000-000000000000',
        'con-',
        '\u0000',
        'a\u0000b',
        '\ud83d',
        'null',
        '[]',
        '{}',
        '%',
        '&=[]',
      ),
    },
  );
  /** Ids of the records under test, only known once beforeAll ran. */
  const knownIds = fc.constantFrom('customer', 'other', 'contact').map((which) => ({ which }));
  const leaf: fc.Arbitrary<FormValue | { which: string }> = fc.oneof({ weight: 12, arbitrary: text }, { weight: 1, arbitrary: knownIds });
  const resolve = (value: unknown): FormValue => {
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return value.map(resolve);
    const v = value as Record<string, unknown>;
    if (typeof v.which === 'string' && Object.keys(v).length === 1) {
      return v.which === 'customer' ? customerId : v.which === 'other' ? otherCustomerId : contactId;
    }
    return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, resolve(item)]));
  };
  const value = fc.oneof(
    { weight: 8, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(leaf, { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.oneof(fc.constantFrom('external_id', '0', '1', 'name', 'id'), fc.string({ maxLength: 5 })), leaf, {
        maxKeys: 3,
      }),
    },
  );
  const key = (specKeys: string[]) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...specKeys) },
      { weight: 1, arbitrary: fc.constantFrom(...JUNK_KEYS) },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    );
  const randomBody = (specKeys: string[]) => fc.dictionary(key(specKeys), value, { maxKeys: 8 }).map((body) => resolve(body) as FormBody);
  /** A valid body with a few random changes, so that the 2xx paths are exercised too. */
  const nearlyValid = (base: () => FormBody, specKeys: string[]) =>
    fc.dictionary(key(specKeys), value, { maxKeys: 2 }).map((changes) => ({ ...base(), ...(resolve(changes) as FormBody) }));

  const customerBody = fc.oneof(
    randomBody(CUSTOMER_KEYS),
    nearlyValid(() => customerParams() as FormBody, CUSTOMER_KEYS),
  );
  const contactBody = fc.oneof(
    randomBody(CONTACT_KEYS),
    nearlyValid(() => contactParams({ customer_id: customerId }) as FormBody, CONTACT_KEYS),
    nearlyValid(() => contactParams({ customer: { external_id: 'base-cus' } }) as FormBody, CONTACT_KEYS),
  );

  function expectProblemDocument(res: Response, context: string): void {
    const summary = `${context} → ${res.status} ${res.text.slice(0, 500)}`;
    expect({ summary, clientError: res.status >= 400 && res.status < 500 }).toEqual({ summary, clientError: true });
    expect({ summary, type: res.headers['content-type'] }).toEqual({ summary, type: expect.stringMatching(/^application\/problem\+json/) });
    expect({
      summary,
      status: res.body.status,
      type: typeof res.body.type,
      title: typeof res.body.title,
      errors: Array.isArray(res.body.errors),
    }).toEqual({
      summary,
      status: res.status,
      type: 'string',
      title: 'string',
      errors: true,
    });
  }

  const readCustomer = async (id: string) => (await client.get(`/api/v1/customers/${id}`).expect(200)).body;
  const readContact = async (id: string) => (await client.get(`/api/v1/contacts/${id}`).expect(200)).body;

  type Send = (body: unknown) => request.Test;
  const server = () => t.app.getHttpServer();
  const asForm =
    (method: 'post' | 'patch', path: string): Send =>
    (body) =>
      (method === 'post' ? request(server()).post(path) : request(server()).patch(path))
        .set('Authorization', company.auth)
        .type('form')
        .send(formEncode(body as FormBody));
  const asJson =
    (method: 'post' | 'patch', path: string): Send =>
    (body) =>
      request(server())[method](path).set('Authorization', company.auth).set('Content-Type', 'application/json').send(JSON.stringify(body));

  /** Sends one body and checks the answer and what is stored afterwards. */
  async function check(
    kind: 'customer' | 'contact',
    operation: 'create' | 'update',
    send: Send,
    body: unknown,
    targetId: () => string,
  ): Promise<void> {
    const read = kind === 'customer' ? readCustomer : readContact;
    const countsBefore = await rowCounts(t.app);
    const before = operation === 'update' ? await read(targetId()) : undefined;
    const res = await send(body);
    const context = `${operation} ${kind} with ${JSON.stringify(body).slice(0, 400)}`;
    if (res.status >= 200 && res.status < 300) {
      expect({ context, status: res.status }).toEqual({ context, status: operation === 'create' ? 201 : 200 });
      const record = kind === 'customer' ? res.body : res.body.contact;
      expect(record.id).toMatch(kind === 'customer' ? CUSTOMER_ID : CONTACT_ID);
      // What the service answered is what it stored.
      expect({ context, stored: await read(record.id) }).toEqual({ context, stored: res.body });
      const countsAfter = await rowCounts(t.app);
      const grew = operation === 'create' ? 1 : 0;
      expect(countsAfter).toEqual({ ...countsBefore, [`${kind}s`]: countsBefore[`${kind}s`] + grew });
      return;
    }
    expectProblemDocument(res, context);
    expect({ context, counts: await rowCounts(t.app) }).toEqual({ context, counts: countsBefore });
    if (before) expect({ context, stored: await read(targetId()) }).toEqual({ context, stored: before });
  }

  const runs = (numRuns: number) => ({ numRuns, endOnFailure: true });

  it(
    'POST /api/v1/customers with random form bodies',
    async () => {
      await fc.assert(
        fc.asyncProperty(customerBody, (body) => check('customer', 'create', asForm('post', '/api/v1/customers'), body, () => '')),
        runs(RUNS),
      );
    },
    TIMEOUT,
  );

  it(
    'PATCH /api/v1/customers/<id> with random form bodies',
    async () => {
      await fc.assert(
        fc.asyncProperty(randomBody(CUSTOMER_KEYS), (body) =>
          check('customer', 'update', asForm('patch', `/api/v1/customers/${customerId}`), body, () => customerId),
        ),
        runs(RUNS),
      );
    },
    TIMEOUT,
  );

  it(
    'POST /api/v1/contacts with random form bodies',
    async () => {
      await fc.assert(
        fc.asyncProperty(contactBody, (body) => check('contact', 'create', asForm('post', '/api/v1/contacts'), body, () => '')),
        runs(RUNS),
      );
    },
    TIMEOUT,
  );

  it(
    'PATCH /api/v1/contacts/<id> with random form bodies',
    async () => {
      await fc.assert(
        fc.asyncProperty(randomBody(CONTACT_KEYS), (body) =>
          check('contact', 'update', asForm('patch', `/api/v1/contacts/${contactId}`), body, () => contactId),
        ),
        runs(RUNS),
      );
    },
    TIMEOUT,
  );

  it(
    'all four endpoints with random JSON bodies',
    async () => {
      const json = fc.oneof(
        fc.dictionary(
          fc.oneof(fc.constantFrom(...CUSTOMER_KEYS, ...CONTACT_KEYS), fc.string({ maxLength: 8 })),
          fc.jsonValue({ maxDepth: 2 }),
          { maxKeys: 6 },
        ),
        fc.jsonValue({ maxDepth: 2 }),
      );
      const endpoints = fc.constantFrom(
        ['customer', 'create', () => asJson('post', '/api/v1/customers')] as const,
        ['customer', 'update', () => asJson('patch', `/api/v1/customers/${customerId}`)] as const,
        ['contact', 'create', () => asJson('post', '/api/v1/contacts')] as const,
        ['contact', 'update', () => asJson('patch', `/api/v1/contacts/${contactId}`)] as const,
      );
      await fc.assert(
        fc.asyncProperty(endpoints, json, ([kind, operation, send], body) =>
          check(kind, operation, send(), body, () => (kind === 'customer' ? customerId : contactId)),
        ),
        runs(JSON_RUNS * 4),
      );
    },
    TIMEOUT,
  );

  describe('text Postgres cannot store as sent (found by the fuzzer)', () => {
    it.each([
      ['POST', '/api/v1/customers', 'note', () => ({ ...customerParams(), note: 'a\u0000b' })],
      ['POST', '/api/v1/customers', 'name', () => ({ ...customerParams(), name: '\u0000' })],
      ['POST', '/api/v1/contacts', 'email', () => ({ ...contactParams({ customer_id: customerId }), email: 'a@b.de\u0000' })],
      ['POST', '/api/v1/contacts', 'customer[external_id]', () => ({ ...contactParams(), customer: { external_id: 'BASE-CUS\u0000' } })],
      ['PATCH', '/api/v1/customers/:customer', 'city', () => ({ city: 'Ber\u0000lin' })],
      ['PATCH', '/api/v1/contacts/:contact', 'phone', () => ({ phone: '\u0000' })],
    ])('a NUL character: %s %s is a 422 naming %s', async (method, path, field, body) => {
      const url = path.replace(':customer', customerId).replace(':contact', contactId);
      const before = await rowCounts(t.app);
      const res = await asForm(method === 'POST' ? 'post' : 'patch', url)(body());
      expectProblemDocument(res, `${method} ${url}`);
      expect(res.status).toBe(422);
      expect(new Set(res.body.errors.map((e: { field: string }) => e.field))).toEqual(new Set([field]));
      expect(await rowCounts(t.app)).toEqual(before);
    });

    it('an unpaired surrogate in JSON is a 422, not a record that differs from the answer', async () => {
      const res = await asJson('post', '/api/v1/customers')({ ...customerParams(), name: 'a\ud83db' });
      expectProblemDocument(res, 'lone surrogate');
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['name']);
      // A well-formed pair (an emoji) is fine.
      const emoji = await asJson('post', '/api/v1/customers')({ ...customerParams(), name: 'a\ud83d\ude00b' }).expect(201);
      expect((await readCustomer(emoji.body.id)).name).toBe('a😀b');
    });

    it.each(['customers', 'contacts'])('find with a NUL in the %s external id is a 400 naming the path', async (resource) => {
      const res = await client.get(`/api/v1/${resource}/find/BASE%00CUS`);
      expectProblemDocument(res, `find ${resource}`);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'path', message: expect.stringMatching(/control characters/) }]);
    });
  });

  it('answers a body over the size limit with a 413 problem document and stores nothing', async () => {
    const before = await rowCounts(t.app);
    const res = await asForm('post', '/api/v1/customers')({ ...(customerParams() as FormBody), note: 'x'.repeat(1100 * 1024) });
    expectProblemDocument(res, 'oversized body');
    expect(res.status).toBe(413);
    expect(await rowCounts(t.app)).toEqual(before);
  });
});

// Invoices: random multipart creates (random text fields, nested customer[...] / contact[...], and
// random files: none, a PDF, text, a fake PDF header, two of one field), random PATCH and payment
// bodies. Every answer is a 2xx whose invoice reads back exactly as answered, or a 4xx problem
// document after which no row, no stored file and no temp upload is left and the invoice is unchanged.
describe('fuzzing the invoice endpoints', () => {
  const config = invoiceSuiteConfig('fuzz');
  let company: TestCompany;
  let invoices: InvoiceApi;
  let customerId: string;
  let contactId: string;
  let draftId: string;
  let sentId: string;
  let pdf: Buffer;

  const t = useTestApp(config, { reset: 'once' });
  beforeAll(async () => {
    company = await registerCompany(t.app, 'Rechnungs-Fuzz GmbH');
    invoices = invoiceApi(t.app, company);
    customerId = (await createCustomer(t.app, company, { external_id: 'BASE-CUS' })).id;
    contactId = (await createContact(t.app, company, customerId, { external_id: 'BASE-CON' })).id;
    pdf = await makePdf('Fuzz');
    draftId = (await invoices.createOk({ customer_id: customerId, external_id: 'BASE-INV', total: '100' })).id;
    sentId = (await invoices.createOk({ customer_id: customerId, total: '1000', 'options[autoskip_shipping]': 'true' })).id;
  });

  const CREATE_KEYS = [
    'external_id',
    'customer_id',
    'contact_id',
    'invoice_number',
    'additional_number',
    'total',
    'net',
    'vat7',
    'vat19',
    'order_date',
    'invoice_date',
    'due_date',
    'time_for_payment',
    'shipping_mode',
    'ignore_reminder_fees',
    'options[autoskip_shipping]',
    'options[autosend]',
    'customer[name]',
    'customer[external_id]',
    'customer[zip]',
    'customer[country_code]',
    'contact[name]',
    'contact[external_id]',
    'contact[email]',
  ];
  const PATCH_KEYS = CREATE_KEYS.filter((key) => !key.includes('[')).concat(['dunning_block_reason', 'dunning_block_until']);
  const PAYMENT_KEYS = ['amount', 'payment_date', 'external_id', 'note', 'inkasso_payment'];
  const JUNK = [
    'id',
    'company_id',
    'status',
    'invoice_status',
    'open_amount',
    'customer',
    'options',
    'invoice',
    '__proto__',
    'customer[id]',
    'options[x]',
    '',
  ];

  const text = fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 20 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.double().map(String) },
    {
      weight: 6,
      arbitrary: fc.constantFrom(
        '',
        ' ',
        'true',
        'false',
        '0',
        '1',
        '-1',
        '119,50',
        '119.505',
        '1e3',
        '999999999999.99',
        '1000000000000',
        'NaN',
        'Infinity',
        '31.02.2026',
        '29.02.2027',
        '2026-02-29',
        '2026-13-01',
        '01.12.2026',
        '2026-12-01',
        '0001-01-01',
        '9999-12-31',
        '3650',
        '3651',
        'email',
        'post',
        'dual_shipping',
        'skip_shipping',
        'BASE-CUS',
        'base-inv',
        'BASE-CON',
        'DE',
        'XX',
        'cus-00000000-0000-4000-8000-000000000000',
        'inv-',
        'a\u0000b',
        '\ud83d',
        'x'.repeat(3000),
      ),
    },
  );
  const known = fc.constantFrom('customer', 'contact', 'draft').map((which) => ({ which }));
  const field = (keys: string[]) =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...keys) },
      { weight: 1, arbitrary: fc.constantFrom(...JUNK) },
      { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
    );
  const fields = (keys: string[], maxKeys: number) =>
    fc.array(fc.tuple(field(keys), fc.oneof({ weight: 10, arbitrary: text }, { weight: 1, arbitrary: known })), { maxLength: maxKeys });
  const resolveValue = (value: string | { which: string }): string =>
    typeof value === 'string' ? value : value.which === 'customer' ? customerId : value.which === 'contact' ? contactId : draftId;
  const FILES = ['pdf', 'pdf', 'pdf', 'none', 'text', 'fake-pdf', 'empty', 'two-invoices', 'junk-attachment', 'unknown-field'] as const;
  /** Mostly a valid create with a few random fields, so that the 201 path is exercised too. */
  const createBody = fc.record({
    base: fc.boolean(),
    pairs: fields(CREATE_KEYS, 6),
    files: fc.constantFrom(...FILES),
  });

  const tableState = async () => ({ counts: await tableCounts(t.app), files: await storedFiles(company) });

  function expectProblem4xx(res: Response, context: string): void {
    const summary = `${context} → ${res.status} ${res.text.slice(0, 400)}`;
    expect({ summary, clientError: res.status >= 400 && res.status < 500, type: res.headers['content-type'] }).toEqual({
      summary,
      clientError: true,
      type: expect.stringMatching(/^application\/problem\+json/),
    });
    expect({ summary, status: res.body.status, errors: Array.isArray(res.body.errors) }).toEqual({
      summary,
      status: res.status,
      errors: true,
    });
  }

  function sendCreate(body: { base: boolean; pairs: Array<[string, string | { which: string }]>; files: (typeof FILES)[number] }) {
    const req = t.http.post('/api/v1/invoices').set('Authorization', company.auth);
    const pairs: Array<[string, string]> = [
      ...(body.base
        ? ([
            ['customer_id', customerId],
            ['total', '10'],
          ] as Array<[string, string]>)
        : []),
    ];
    for (const [name, value] of body.pairs) pairs.push([name, resolveValue(value)]);
    for (const [name, value] of pairs) req.field(name, value);
    const file = (name: string, data: Buffer) => req.attach(name, data, { filename: 'f.pdf', contentType: 'application/pdf' });
    if (body.files === 'pdf' || body.files === 'two-invoices' || body.files === 'junk-attachment' || body.files === 'unknown-field')
      file('invoice', pdf);
    if (body.files === 'two-invoices') file('invoice', pdf);
    if (body.files === 'junk-attachment') file('invoice_attachment', Buffer.from('%PDF-1.7 not really'));
    if (body.files === 'unknown-field') file('logo', pdf);
    if (body.files === 'text') file('invoice', Buffer.from('Rechnung als Text'));
    if (body.files === 'fake-pdf') file('invoice', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2000, 0x41)]));
    if (body.files === 'empty') file('invoice', Buffer.alloc(0));
    return { req, context: `create ${JSON.stringify({ pairs, files: body.files }).slice(0, 500)}` };
  }

  const runs = (numRuns: number) => ({ numRuns, endOnFailure: true });

  it(
    'POST /api/v1/invoices with random multipart bodies and files',
    async () => {
      await fc.assert(
        fc.asyncProperty(createBody, async (body) => {
          const before = await tableState();
          const { req, context } = sendCreate(body);
          const res = await req;
          if (res.status === 201) {
            const stored = await invoices.invoice(res.body.invoice.id).expect(200);
            expect({ context, stored: stored.body }).toEqual({ context, stored: res.body });
            expect({ context, invoices: (await tableCounts(t.app)).invoices }).toEqual({ context, invoices: before.counts.invoices + 1 });
            return;
          }
          expectProblem4xx(res, context);
          expect({ context, ...(await tableState()) }).toEqual({ context, ...before });
          expect({ context, uploads: await leftoverUploads(config) }).toEqual({ context, uploads: [] });
        }),
        runs(RUNS),
      );
    },
    TIMEOUT,
  );

  /** One PATCH or payment body, form or JSON, against an invoice: 2xx reads back as answered, 4xx changes nothing. */
  async function checkChange(
    kind: 'PATCH' | 'payment',
    invoiceId: string,
    pairs: Array<[string, string | { which: string }]>,
    asJson: boolean,
  ): Promise<void> {
    const body: Record<string, string> = {};
    for (const [name, value] of pairs) body[name] = resolveValue(value);
    const before = await tableState();
    const invoiceBefore = (await invoices.invoice(invoiceId).expect(200)).body;
    const path = kind === 'PATCH' ? `/api/v1/invoices/${invoiceId}` : `/api/v1/invoices/${invoiceId}/payments`;
    const req = t.http[kind === 'PATCH' ? 'patch' : 'post'](path).set('Authorization', company.auth);
    const res = asJson
      ? await req.set('Content-Type', 'application/json').send(JSON.stringify(body))
      : await req.type('form').send(new URLSearchParams(body).toString());
    const context = `${kind} ${asJson ? 'json' : 'form'} ${JSON.stringify(body).slice(0, 400)}`;
    if (res.status >= 200 && res.status < 300) {
      expect({ context, status: res.status }).toEqual({ context, status: kind === 'PATCH' ? 200 : 201 });
      expect({ context, stored: (await invoices.invoice(invoiceId).expect(200)).body }).toEqual({ context, stored: res.body });
      if (kind === 'payment')
        expect({ context, payments: (await tableCounts(t.app)).payments }).toEqual({ context, payments: before.counts.payments + 1 });
      return;
    }
    expectProblem4xx(res, context);
    expect({ context, ...(await tableState()) }).toEqual({ context, ...before });
    expect({ context, stored: (await invoices.invoice(invoiceId).expect(200)).body }).toEqual({ context, stored: invoiceBefore });
  }

  it(
    'PATCH /api/v1/invoices/<id> (a draft and a sent invoice) with random form and JSON bodies',
    async () => {
      await fc.assert(
        fc.asyncProperty(fields(PATCH_KEYS, 5), fc.boolean(), fc.boolean(), (pairs, onDraft, asJson) =>
          checkChange('PATCH', onDraft ? draftId : sentId, pairs, asJson),
        ),
        runs(RUNS),
      );
    },
    TIMEOUT,
  );

  it(
    'POST /api/v1/invoices/<id>/payments with random form and JSON bodies',
    async () => {
      const amount = fc.oneof(text, fc.constantFrom('0.01', '5', '12,34', '999999999999.99'));
      const body = fc
        .tuple(fc.option(amount, { nil: undefined }), fields(PAYMENT_KEYS, 4))
        .map(([value, pairs]) =>
          value === undefined ? pairs : ([['amount', value], ...pairs] as Array<[string, string | { which: string }]>),
        );
      await fc.assert(
        fc.asyncProperty(body, fc.boolean(), (pairs, asJson) => checkChange('payment', sentId, pairs, asJson)),
        runs(RUNS),
      );
    },
    TIMEOUT,
  );
});
