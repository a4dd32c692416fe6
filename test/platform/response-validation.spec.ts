// The response validation every suite runs (test/setup/validate-responses.ts): what it accepts and what
// it reports, on the committed openapi.json, and that a supertest request fails on a drifting answer.
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { ResponseValidator, responseValidator } from '../support/openapi-validation.js';

const UUID = '3f2b8c1e-6a4d-4e0b-9c57-2d8e1f0a7b64';
const key = {
  id: `key-${UUID}`,
  name: 'ERP',
  prefix: 'rk_1234',
  status: 'active',
  created_at: '2026-11-21T20:53:00+01:00',
  expires_at: '2027-11-21T20:53:00+01:00',
  revoked_at: null,
  replaced_by: null,
  replaced_at: null,
};
const answer = (url: string, status: number, body: unknown, contentType = 'application/json; charset=utf-8', method = 'GET') => ({
  method,
  url,
  status,
  contentType,
  body,
  hasBody: body !== undefined,
});

describe('response validation against openapi.json', () => {
  const v = responseValidator();

  it('accepts an answer as documented, nulls where the schema is nullable', () => {
    expect(v.check(answer(`/api/v1/api_keys/key-${UUID}`, 200, { api_key: key }))).toBeNull();
  });

  it('reports a field the schema does not list, a missing one, a wrong type and a null where none is allowed', () => {
    expect(v.check(answer(`/api/v1/api_keys/key-${UUID}`, 200, { api_key: { ...key, secret: 'x' } }))).toMatch(
      /must NOT have additional properties \(secret\)/,
    );
    const { name: _name, ...nameless } = key;
    expect(v.check(answer(`/api/v1/api_keys/key-${UUID}`, 200, { api_key: nameless }))).toMatch(/must have required property 'name'/);
    expect(v.check(answer(`/api/v1/api_keys/key-${UUID}`, 200, { api_key: { ...key, status: 'gone' } }))).toMatch(
      /\/api_key\/status must be equal to one of the allowed values/,
    );
    expect(v.check(answer(`/api/v1/api_keys/key-${UUID}`, 200, { api_key: { ...key, created_at: null } }))).toMatch(
      /\/api_key\/created_at must be string/,
    );
  });

  it('reads nullable as OpenAPI 3.0.3 does: a nullable component is oneOf [$ref, null], never allOf with nullable beside it', () => {
    const component = { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] };
    const strict = new ResponseValidator({
      paths: {
        '/x': { get: { responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Holder' } } } } } } },
      },
      components: {
        schemas: {
          A: component,
          Holder: {
            type: 'object',
            properties: {
              written: { oneOf: [{ $ref: '#/components/schemas/A' }, { type: 'object', nullable: true, enum: [null] }] },
              loose: { type: 'object', allOf: [{ $ref: '#/components/schemas/A' }], nullable: true },
            },
          },
        },
      },
    });
    const get = (body: unknown) => strict.check(answer('/x', 200, body));
    expect(get({ written: null })).toBeNull();
    expect(get({ written: { x: 'a' } })).toBeNull();
    expect(get({ written: { y: 'a' } })).toMatch(/\/written/);
    expect(get({ loose: { x: 'a' } })).toBeNull();
    expect(get({ loose: null })).toMatch(/\/loose must be object/);
    // The document writes its nullable components the first way (src/openapi/schema.ts).
    const contact = responseValidator().check(answer(`/api/v1/invoices/inv-${UUID}`, 200, { invoice: { contact: null } }));
    expect(contact).not.toMatch(/\/invoice\/contact/);
  });

  it('reports an undocumented status or content type, and checks problem documents', () => {
    expect(v.check(answer('/api/v1/api_keys', 418, {}))).toMatch(/status 418 is not documented/);
    expect(v.check(answer(`/api/v1/api_keys/key-${UUID}`, 200, '<html/>', 'text/html'))).toMatch(
      /sent text\/html, documented application\/json/,
    );
    const problem = {
      type: 'urn:receivables:problem:api_key.not_found',
      title: 'Not Found',
      status: 404,
      detail: 'No such API key',
      code: 'api_key.not_found',
      errors: [],
      request_id: 'r-1',
    };
    expect(v.check(answer(`/api/v1/api_keys/key-${UUID}`, 404, problem, 'application/problem+json'))).toBeNull();
    expect(v.check(answer(`/api/v1/api_keys/key-${UUID}`, 404, { ...problem, code: 'nope' }, 'application/problem+json'))).toMatch(
      /\/code/,
    );
    expect(v.check(answer('/no/such/route', 404, { ...problem, code: 'request.not_found' }, 'application/problem+json'))).toBeNull();
  });

  it('takes the literal path over a template: /invoices/find/<external id> is not an invoice action', () => {
    expect(v.check(answer('/api/v1/invoices/find/archive', 200, {}))).toMatch(/InvoicesController_find/);
  });

  describe('on every supertest request', () => {
    let server: Server;
    beforeAll(() => {
      server = createServer((_req, res) => {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ status: 'ok', uptime: 'forever' }));
      });
    });
    afterAll(() => server.close());

    it('fails the request when the answer drifts from the document', async () => {
      await expect(request(server).get('/health/live').expect(200)).rejects.toThrow(
        /GET \/health\/live → 200 .*additional properties \(uptime\)/s,
      );
    });
  });
});
