// The committed openapi.json is the document the service serves (CI fails when it is stale: run
// `npm run openapi`), and its response schemas match what the serializers really send.
import { readFileSync } from 'node:fs';
import request, { type Response } from 'supertest';
import { makePdf } from '../support/pdf.js';
import { registerCompany, resetDatabase, type TestCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

interface Schema {
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  $ref?: string;
}

interface Operation {
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const committed = (): Document => JSON.parse(readFileSync('openapi.json', 'utf8')) as Document;

describe('OpenAPI document (openapi.json)', () => {
  let doc: Document;

  const t = useTestApp({}, { reset: 'manual' });
  beforeAll(() => {
    doc = committed();
  });

  const schema = (name: string): Schema => doc.components.schemas[name];
  const resolve = (s: Schema): Schema => {
    const ref = s.$ref ?? s.allOf?.[0]?.$ref;
    return ref ? { ...schema(ref.split('/').pop() as string), nullable: s.nullable } : s;
  };

  /** Every key the schema lists is sent and nothing else, each value of its type, format and pattern. */
  function expectConforms(value: unknown, s: Schema, path: string): void {
    const target = resolve(s);
    if (value === null) return expect({ path, nullable: target.nullable ?? false }).toEqual({ path, nullable: true });
    if (target.enum) expect({ path, value, allowed: target.enum.includes(value) }).toEqual({ path, value, allowed: true });
    if (target.pattern) expect({ path, value }).toEqual({ path, value: expect.stringMatching(new RegExp(target.pattern)) });
    if (target.type === 'array') {
      expect(Array.isArray(value)).toBe(true);
      return (value as unknown[]).forEach((item, i) => expectConforms(item, target.items as Schema, `${path}[${i}]`));
    }
    if (target.type === 'object' && target.properties) {
      const record = value as Record<string, unknown>;
      const optional = Object.keys(target.properties).filter((key) => !target.required?.includes(key));
      expect({
        path,
        keys: Object.keys(record)
          .filter((key) => !optional.includes(key))
          .sort(),
      }).toEqual({ path, keys: [...(target.required ?? [])].sort() });
      return Object.entries(record).forEach(([key, item]) =>
        expectConforms(item, (target.properties as Record<string, Schema>)[key], `${path}.${key}`),
      );
    }
    const type = target.type === 'integer' ? 'number' : target.type;
    expect({ path, type: typeof value }).toEqual({ path, type });
    if (target.type === 'integer') expect(Number.isInteger(value)).toBe(true);
  }

  /** The documented answer of an operation for this response's status and content type. */
  function expectDocumented(res: Response, path: string, method: string): void {
    const answer = doc.paths[path][method].responses[String(res.status)];
    expect({ path, method, status: res.status, documented: answer !== undefined }).toEqual({
      path,
      method,
      status: res.status,
      documented: true,
    });
    const type = (res.headers['content-type'] ?? '').split(';')[0];
    const content = answer.content?.[type];
    expect({ path, status: res.status, type, documented: content !== undefined }).toEqual({
      path,
      status: res.status,
      type,
      documented: true,
    });
    expectConforms(res.body, content?.schema as Schema, `${method} ${path} ${res.status}`);
  }

  it('is the document the service serves: run `npm run openapi` after changing the wire format', async () => {
    const res = await t.http.get('/api/docs-json').expect(200);
    expect(res.body).toEqual(doc);
  });

  it('states the formats of DESIGN.md', () => {
    expect(schema('Customer').properties?.address).toMatchObject({ type: 'string' });
    expect(schema('Customer').properties?.id.pattern).toMatch(/^\^cus-/);
    expect(schema('Invoice').properties?.total).toMatchObject({ type: 'string', pattern: '^-?\\d+\\.\\d+$' });
    expect(schema('Invoice').properties?.due_date).toMatchObject({ type: 'string', format: 'date', nullable: true });
    expect(schema('Contact').properties?.created_at).toMatchObject({ type: 'string', format: 'date-time' });
    expect(schema('Contact').properties?.gender).toMatchObject({ type: 'integer', enum: [0, 1, 2] });
    const notFound = doc.paths['/api/v1/customers/{id}'].get.responses['404'];
    expect(notFound.content).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
    expect(Object.keys(doc.paths['/api/v1/invoices/{id}/pdf'].get.responses['200'].content ?? {})).toEqual(['application/pdf']);
    const upload = doc.paths['/api/v1/invoices'].post.requestBody?.content['multipart/form-data'].schema as Schema;
    expect(resolve(upload).properties?.invoice).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(doc.paths['/api/v1/customers'].post.requestBody?.content ?? {}).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
  });

  describe('matches the real answers', () => {
    let company: TestCompany;
    const http = () => t.http;
    const as = (req: request.Test) => req.set('Authorization', company.auth);

    beforeEach(async () => {
      await resetDatabase(t.app);
      company = await registerCompany(t.app);
    });

    it('customers, contacts, invoices, events, lists and problems', async () => {
      const customerBody = {
        name: 'Muster GmbH',
        address_line1: 'Muster GmbH',
        address_line3: 'Musterstraße 1',
        zip: '10115',
        city: 'Berlin',
        country_code: 'DE',
        external_id: 'K-1',
      };
      const customer = await as(http().post('/api/v1/customers').type('form').send(customerBody)).expect(201);
      expectDocumented(customer, '/api/v1/customers', 'post');
      const contact = await as(
        http().post('/api/v1/contacts').type('form').send({ name: 'Erika', gender: '2', salutation: '0', customer_id: customer.body.id }),
      ).expect(201);
      expectDocumented(contact, '/api/v1/contacts', 'post');
      expectDocumented(await as(http().get(`/api/v1/customers/${customer.body.id}`)).expect(200), '/api/v1/customers/{id}', 'get');
      expectDocumented(await as(http().get('/api/v1/customers')).expect(200), '/api/v1/customers', 'get');

      const pdf = await makePdf('Rechnung');
      const upload = as(http().post('/api/v1/invoices'))
        .field('customer_id', customer.body.id)
        .field('contact_id', contact.body.contact.id);
      const invoice = await upload.field('total', '119,00').field('invoice_date', '21.11.2026').attach('invoice', pdf, 'r.pdf').expect(201);
      expectDocumented(invoice, '/api/v1/invoices', 'post');
      const id: string = invoice.body.invoice.id;
      expectDocumented(
        await as(http().post(`/api/v1/invoices/${id}/payments`).type('form').send({ amount: '19.5' })).expect(201),
        '/api/v1/invoices/{id}/payments',
        'post',
      );
      expectDocumented(await as(http().get('/api/v1/invoices')).expect(200), '/api/v1/invoices', 'get');
      expectDocumented(await as(http().get(`/api/v1/invoices/${id}/events`)).expect(200), '/api/v1/invoices/{id}/events', 'get');

      expectDocumented(await as(http().get('/api/v1/customers/cus-nope')).expect(404), '/api/v1/customers/{id}', 'get');
      expectDocumented(
        await as(http().post('/api/v1/customers').type('form').send({ name: 'x' })).expect(422),
        '/api/v1/customers',
        'post',
      );
      expectDocumented(await as(http().post('/api/v1/customers').type('form').send(customerBody)).expect(409), '/api/v1/customers', 'post');
      expectDocumented(await http().get('/').expect(401), '/', 'get');
      expectDocumented(await as(http().get('/')).expect(200), '/', 'get');
    });
  });
});
