// The committed openapi.json is the document the service serves (CI fails when it is stale: run
// `npm run openapi`). That its response schemas match what the serializers really send is checked on
// every answer of every suite (test/setup/validate-responses.ts); here the main flow once, start to end.
import { readFileSync } from 'node:fs';
import type request from 'supertest';
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
    return ref ? schema(ref.split('/').pop() as string) : s;
  };

  it('is the document the service serves: run `npm run openapi` after changing the wire format', async () => {
    const res = await t.http.get('/api/docs-json').expect(200);
    expect(res.body).toEqual(doc);
  });

  it('describes every operation, with a schema for each answer that has a body, and the OAuth endpoints', () => {
    const gaps: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item) as Array<[string, Operation & { summary?: string; description?: string }]>) {
        if (!operation.summary || !operation.description) gaps.push(`${method} ${path}: summary and description`);
        for (const [status, answer] of Object.entries(operation.responses)) {
          if (/^2\d\d$/.test(status) && status !== '204' && !answer.content) gaps.push(`${method} ${path} ${status}: no body described`);
          for (const [type, media] of Object.entries(answer.content ?? {}))
            if (!media.schema) gaps.push(`${method} ${path} ${status} ${type}: no schema`);
        }
      }
    }
    expect(gaps).toEqual([]);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/oauth/authorize', '/oauth/token']));
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

  // Each answer below is checked against the document by the response validation of every suite.
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
      const contact = await as(
        http().post('/api/v1/contacts').type('form').send({ name: 'Erika', gender: '2', salutation: '0', customer_id: customer.body.id }),
      ).expect(201);
      await as(http().get(`/api/v1/customers/${customer.body.id}`)).expect(200);
      await as(http().get('/api/v1/customers')).expect(200);

      const pdf = await makePdf('Rechnung');
      const upload = as(http().post('/api/v1/invoices'))
        .field('customer_id', customer.body.id)
        .field('contact_id', contact.body.contact.id);
      const invoice = await upload.field('total', '119,00').field('invoice_date', '21.11.2026').attach('invoice', pdf, 'r.pdf').expect(201);
      const id: string = invoice.body.invoice.id;
      await as(http().post(`/api/v1/invoices/${id}/payments`).type('form').send({ amount: '19.5' })).expect(201);
      await as(http().get('/api/v1/invoices')).expect(200);
      await as(http().get(`/api/v1/invoices/${id}/events`)).expect(200);

      await as(http().get('/api/v1/customers/cus-nope')).expect(404);
      await as(http().post('/api/v1/customers').type('form').send({ name: 'x' })).expect(422);
      await as(http().post('/api/v1/customers').type('form').send(customerBody)).expect(409);
      await http().get('/').expect(401);
      await as(http().get('/')).expect(200);
    });
  });
});
