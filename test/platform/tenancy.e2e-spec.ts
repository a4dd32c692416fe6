import request, { type Response } from 'supertest';
import {
  api,
  contactParams,
  createContact,
  createCustomer,
  customerParams,
  errorFields,
  expectProblem,
  type Json,
  rowCounts,
  withoutRateLimits,
} from '../support/factories.js';
import { registerCompany, type TestCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

const UNKNOWN_CUSTOMER = 'cus-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const UNKNOWN_CONTACT = 'con-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

/** What a 404 says, without the parts that name the requested id or the request. */
function notFoundShape(res: Response) {
  expectProblem(res, 404);
  const { detail: _detail, request_id: _requestId, ...rest } = res.body;
  return rest;
}

describe('tenant isolation', () => {
  let a: TestCompany;
  let b: TestCompany;
  let aCustomer: Json;
  let aContact: Json;
  let asB: ReturnType<typeof api>;

  // The auth cases below fail on purpose, over a hundred times from one address: the limit on failed
  // authentications would answer 429 instead of the 401 under test (it has its own suite). Tokens are
  // looked up on every request here, so a revocation applies at once (the cache: api-tokens suite).
  const t = useTestApp({ ...withoutRateLimits(), tokenCacheSeconds: 0 });
  beforeEach(async () => {
    a = await registerCompany(t.app, 'Firma A');
    b = await registerCompany(t.app, 'Firma B');
    aCustomer = await createCustomer(t.app, a, { external_id: 'SHARED-1', name: 'Kunde von A' });
    aContact = await createContact(t.app, a, aCustomer.id as string, { external_id: 'KON-SHARED', name: 'Kontakt von A' });
    asB = api(t.app, b);
  });

  /** A's records, read with A's credential: unchanged by whatever B tried. */
  async function expectAUnchanged(): Promise<void> {
    const asA = api(t.app, a);
    const customer = await asA.get(`/api/v1/customers/${aCustomer.id}`).expect(200);
    expect({ ...customer.body, contacts: undefined }).toEqual({ ...aCustomer, contacts: undefined });
    expect(customer.body.contacts.map((c: { id: string }) => c.id)).toEqual([aContact.id]);
    await asA.get(`/api/v1/contacts/${aContact.id}`).expect(200, { contact: aContact });
  }

  describe('customers', () => {
    it('GET of another company’s customer is a 404 like an id that does not exist', async () => {
      const other = await asB.get(`/api/v1/customers/${aCustomer.id}`);
      const unknown = await asB.get(`/api/v1/customers/${UNKNOWN_CUSTOMER}`);
      expect(notFoundShape(other)).toEqual(notFoundShape(unknown));
      expect(JSON.stringify(other.body)).not.toContain('Kunde von A');
    });

    it('find does not see another company’s external_id, in any case', async () => {
      for (const key of ['SHARED-1', 'shared-1']) {
        const res = await asB.get(`/api/v1/customers/find/${key}`);
        expect(notFoundShape(res)).toEqual(notFoundShape(await asB.get('/api/v1/customers/find/NEVER-USED')));
      }
    });

    it('the list shows and counts only the company’s own customers', async () => {
      await createCustomer(t.app, a);
      await createCustomer(t.app, a);
      const empty = await asB.get('/api/v1/customers').expect(200);
      expect(empty.body).toEqual({
        customers: [],
        meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 0, per_page: 30, total_count: 0 },
      });
      const own = await createCustomer(t.app, b);
      const listed = await asB.get('/api/v1/customers?per_page=1').expect(200);
      expect(listed.body.customers.map((c: { id: string }) => c.id)).toEqual([own.id]);
      expect(listed.body.meta).toMatchObject({ total_count: 1, total_pages: 1, next_page: null });
      const asA = await api(t.app, a).get('/api/v1/customers').expect(200);
      expect(asA.body.meta.total_count).toBe(3);
      expect(asA.body.customers.map((c: { id: string }) => c.id)).not.toContain(own.id);
    });

    it('PATCH of another company’s customer is a 404 and changes nothing', async () => {
      const res = await asB.patchForm(`/api/v1/customers/${aCustomer.id}`, { name: 'Gekapert', note: 'von B' });
      expect(notFoundShape(res)).toEqual(notFoundShape(await asB.patchForm(`/api/v1/customers/${UNKNOWN_CUSTOMER}`, { name: 'X' })));
      await expectAUnchanged();
    });

    it('external_id is unique per company: B may use A’s, and each finds its own', async () => {
      const bCustomer = (
        await asB.postForm('/api/v1/customers', customerParams({ external_id: 'shared-1', name: 'Kunde von B' })).expect(201)
      ).body;
      expect(bCustomer.id).not.toBe(aCustomer.id);
      expect((await asB.get('/api/v1/customers/find/SHARED-1').expect(200)).body.id).toBe(bCustomer.id);
      expect((await api(t.app, a).get('/api/v1/customers/find/shared-1').expect(200)).body.id).toBe(aCustomer.id);
      // Changing B's customer to another value A holds is no conflict either.
      await createCustomer(t.app, a, { external_id: 'A-ONLY' });
      await asB.patchForm(`/api/v1/customers/${bCustomer.id}`, { external_id: 'a-only' }).expect(200);
    });
  });

  describe('contacts', () => {
    it('GET of another company’s contact is a 404 like an id that does not exist', async () => {
      const res = await asB.get(`/api/v1/contacts/${aContact.id}`);
      expect(notFoundShape(res)).toEqual(notFoundShape(await asB.get(`/api/v1/contacts/${UNKNOWN_CONTACT}`)));
      expect(JSON.stringify(res.body)).not.toContain('Kontakt von A');
    });

    it('find does not see another company’s contact', async () => {
      for (const key of ['KON-SHARED', 'kon-shared']) {
        const res = await asB.get(`/api/v1/contacts/find/${key}`);
        expect(notFoundShape(res)).toEqual(notFoundShape(await asB.get('/api/v1/contacts/find/NEVER-USED')));
      }
    });

    it('PATCH of another company’s contact is a 404 and changes nothing', async () => {
      const res = await asB.patchForm(`/api/v1/contacts/${aContact.id}`, { name: 'Gekapert', email: 'b@b.de' });
      expect(notFoundShape(res)).toEqual(notFoundShape(await asB.patchForm(`/api/v1/contacts/${UNKNOWN_CONTACT}`, { name: 'X' })));
      await expectAUnchanged();
    });

    it('a contact cannot be created for another company’s customer, by id or by external id', async () => {
      const byId = await asB.postForm('/api/v1/contacts', contactParams({ customer_id: aCustomer.id }));
      const unknownId = await asB.postForm('/api/v1/contacts', contactParams({ customer_id: UNKNOWN_CUSTOMER }));
      expectProblem(byId, 422);
      expect(errorFields(byId)).toEqual(['customer_id']);
      expect(byId.body.errors).toEqual(
        unknownId.body.errors.map((e: { message: string }) => ({
          ...e,
          message: e.message.replace(UNKNOWN_CUSTOMER, aCustomer.id as string),
        })),
      );
      const byExternal = await asB.postForm('/api/v1/contacts', contactParams({ 'customer[external_id]': 'shared-1' }));
      expectProblem(byExternal, 422);
      expect(errorFields(byExternal)).toEqual(['customer[external_id]']);
      const byJson = await asB.postJson('/api/v1/contacts', { name: 'X', gender: 0, salutation: 0, customer: { external_id: 'SHARED-1' } });
      expectProblem(byJson, 422);
      expect(await rowCounts(t.app)).toEqual({ customers: 1, contacts: 1 });
      await expectAUnchanged();
    });

    it('a contact cannot be moved to another company’s customer', async () => {
      const bCustomer = await createCustomer(t.app, b);
      const bContact = await createContact(t.app, b, bCustomer.id);
      const byId = await asB.patchForm(`/api/v1/contacts/${bContact.id}`, { customer_id: aCustomer.id });
      expectProblem(byId, 422);
      expect(errorFields(byId)).toEqual(['customer_id']);
      const byExternal = await asB.patchForm(`/api/v1/contacts/${bContact.id}`, { 'customer[external_id]': 'SHARED-1' });
      expectProblem(byExternal, 422);
      expect(errorFields(byExternal)).toEqual(['customer[external_id]']);
      await asB.get(`/api/v1/contacts/${bContact.id}`).expect(200, { contact: bContact });
      await expectAUnchanged();
    });

    it('customer[external_id] picks the own company’s customer when both use the same external id', async () => {
      const bCustomer = await createCustomer(t.app, b, { external_id: 'SHARED-1' });
      const res = await asB
        .postForm('/api/v1/contacts', contactParams({ 'customer[external_id]': 'shared-1', external_id: 'kon-shared' }))
        .expect(201);
      expect(res.body.contact.customer.id).toBe(bCustomer.id);
      // The contact external_id A holds is free in B too, and no 409 reveals A's contact.
      expect(res.body.contact.external_id).toBe('kon-shared');
      expect((await asB.get('/api/v1/contacts/find/KON-SHARED').expect(200)).body.contact.id).toBe(res.body.contact.id);
      await expectAUnchanged();
    });

    it('another company’s contacts never appear in a customer’s summaries', async () => {
      const bCustomer = await createCustomer(t.app, b);
      await createContact(t.app, b, bCustomer.id);
      const aView = await api(t.app, a).get(`/api/v1/customers/${aCustomer.id}`).expect(200);
      expect(aView.body.contacts.map((c: { id: string }) => c.id)).toEqual([aContact.id]);
      const bView = await asB.get('/api/v1/customers').expect(200);
      expect(bView.body.customers[0].contacts).toHaveLength(1);
      expect(bView.body.customers[0].contacts[0].id).not.toBe(aContact.id);
    });
  });

  describe('authentication', () => {
    const ENDPOINTS: Array<[string, string]> = [
      ['get', '/'],
      ['post', '/api/v1/customers'],
      ['get', '/api/v1/customers'],
      ['get', `/api/v1/customers/${UNKNOWN_CUSTOMER}`],
      ['patch', `/api/v1/customers/${UNKNOWN_CUSTOMER}`],
      ['get', '/api/v1/customers/find/SHARED-1'],
      ['post', '/api/v1/contacts'],
      ['get', `/api/v1/contacts/${UNKNOWN_CONTACT}`],
      ['patch', `/api/v1/contacts/${UNKNOWN_CONTACT}`],
      ['get', '/api/v1/contacts/find/KON-SHARED'],
    ];

    const send = (method: string, path: string, authorization?: string) => {
      const server = t.app.getHttpServer();
      let req = method === 'get' ? request(server).get(path) : method === 'post' ? request(server).post(path) : request(server).patch(path);
      if (authorization !== undefined) req = req.set('Authorization', authorization);
      return method === 'get' ? req : req.type('form').send(customerParams({ external_id: 'VIA-BAD-AUTH' }));
    };

    function expectChallenge(res: Response, code: string): void {
      expectProblem(res, 401);
      expect(res.body.code).toBe(code);
      expect(res.headers['www-authenticate']).toBe('Token realm="api"');
    }

    it.each(ENDPOINTS)('%s %s without a credential is a 401 problem document with a challenge', async (method, path) => {
      expectChallenge(await send(method, path), 'auth.missing_credential');
    });

    it.each(ENDPOINTS)('%s %s with a wrong scheme, an unknown or a malformed token is a 401', async (method, path) => {
      const bad = [
        `Bearer ${a.token}`,
        `ApiKey ${a.apiKey}`,
        `Basic ${Buffer.from(`x:${a.token}`).toString('base64')}`,
        a.token,
        'Token token=unknown-token',
        `Token token=${a.token}x`,
        'Token token=',
        'Token token',
        'Token',
        `Token token="${a.token}`,
        `Token token=${a.token} extra`,
        `Token token=${a.token.slice(0, -1)}`,
      ];
      for (const authorization of bad) {
        const res = await send(method, path, authorization);
        expectChallenge(res, 'auth.invalid_credential');
      }
    });

    it('stores nothing for a refused credential', async () => {
      for (const [method, path] of ENDPOINTS.filter(([m]) => m !== 'get')) {
        await send(method, path, 'Token token=unknown').expect(401);
      }
      expect(await rowCounts(t.app)).toEqual({ customers: 1, contacts: 1 });
      await expectAUnchanged();
    });

    it('accepts the token bare or quoted, and refuses it once revoked', async () => {
      await send('get', '/', `Token token=${a.token}`).expect(200);
      await send('get', '/', `Token token="${a.token}"`).expect(200);
      await t.db.query('UPDATE api_tokens SET revoked_at = now() WHERE company_id = $1', [a.id.slice(4)]);
      expectChallenge(await send('get', `/api/v1/customers/${aCustomer.id}`, a.auth), 'auth.invalid_credential');
      // B's token is untouched by A's revocation.
      await send('get', '/', b.auth).expect(200);
    });
  });
});
