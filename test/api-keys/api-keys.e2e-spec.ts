// API keys: create, list, revoke, rotate with a grace period, expiry after 90 days, the near-expiry
// headers, and the 401 problem documents of /v2/documents (ApiKey and Bearer side by side).
import type { AppConfig } from '../../src/config/app.config.js';
import { expectProblem } from '../support/factories.js';
import { apiKeyAuth, customerFields, pushDocument, quickPush } from '../support/push.js';
import { afterCredentialCache, registerCompany, testConfig } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

/** The push settings of the tests with API_KEY_CACHE_SECONDS = seconds. */
function withKeyCache(seconds: number): Partial<AppConfig> {
  const base = quickPush();
  return { ...base, integration: { ...base.integration!, apiKeys: { ...base.integration!.apiKeys, cacheSeconds: seconds } } };
}

describe('API keys', () => {
  // These tests change keys in the database directly and expect it at once: no lookup cache.
  const t = useTestApp(withKeyCache(0), { company: true });

  const http = () => t.http;
  const customerDoc = (n: number) => ({ document_type: 'customer', external_id: `K-${n}`, ...customerFields(n) });
  const pushWith = (key: string) => pushDocument(t.app, apiKeyAuth(key), customerDoc(1));
  const setExpiry = (keyId: string, sql: string) => t.db.query(`UPDATE api_keys SET expires_at = ${sql} WHERE id = $1`, [keyId.slice(4)]);

  it('creates a key shown once, lists keys without secrets, and the key pushes', async () => {
    const created = await http().post('/api/v1/api_keys').set('Authorization', t.company.auth).send({ name: 'ERP' }).expect(201);
    const key = created.body.api_key;
    expect(key).toMatchObject({
      id: expect.stringMatching(/^key-/),
      name: 'ERP',
      status: 'active',
      key: expect.stringMatching(/^rk_/),
      prefix: key.key.slice(0, 8),
    });
    const days = (Date.parse(key.expires_at) - Date.parse(key.created_at)) / 86_400_000;
    expect(Math.round(days)).toBe(90);
    const list = await http().get('/api/v1/api_keys').set('Authorization', t.company.auth).expect(200);
    expect(list.body.api_keys).toHaveLength(2);
    expect(JSON.stringify(list.body)).not.toContain(key.key);
    expect(list.body.meta.total_count).toBe(2);
    expect((await pushWith(key.key)).status).toBe(202);
    // Key management takes the REST API token, not a push credential.
    expectProblem(await http().get('/api/v1/api_keys').set('Authorization', apiKeyAuth(key.key)), 401);
  });

  it('refuses a revoked key with a 401 that says it was revoked', async () => {
    const created = await http().post('/api/v1/api_keys').set('Authorization', t.company.auth).send({}).expect(201);
    await http().delete(`/api/v1/api_keys/${created.body.api_key.id}`).set('Authorization', t.company.auth).expect(204);
    const res = await pushWith(created.body.api_key.key);
    expectProblem(res, 401);
    expect(res.body).toMatchObject({ code: 'auth.credential_revoked', detail: expect.stringMatching(/revoked/) });
    expect(res.headers['www-authenticate']).toBe('ApiKey realm="push", Bearer realm="push"');
  });

  it('refuses an expired key with a 401 that says it expired, and announces a key near expiry in headers', async () => {
    const created = await http().post('/api/v1/api_keys').set('Authorization', t.company.auth).send({}).expect(201);
    const { id, key } = created.body.api_key;
    const fresh = await pushWith(key);
    expect(fresh.headers.sunset).toBeUndefined();
    await setExpiry(id, `now() + interval '3 days'`);
    const soon = await pushDocument(t.app, apiKeyAuth(key), customerDoc(2));
    expect(soon.status).toBe(202);
    expect(new Date(soon.headers.sunset).getTime()).toBeGreaterThan(Date.now() + 2 * 86_400_000);
    expect(soon.headers['api-key-expires-at']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    const listed = await http().get(`/api/v1/api_keys/${id}`).set('Authorization', t.company.auth).expect(200);
    expect(listed.body.api_key.status).toBe('expiring');
    await setExpiry(id, `now() - interval '1 second'`);
    const res = await pushWith(key);
    expectProblem(res, 401);
    expect(res.body).toMatchObject({ code: 'auth.credential_expired', detail: expect.stringMatching(/expired at \d{4}-/) });
  });

  it('rotates a key: the new one works at once, the old one for the grace period, then it is expired', async () => {
    const created = await http().post('/api/v1/api_keys').set('Authorization', t.company.auth).send({ name: 'Middleware' }).expect(201);
    const old = created.body.api_key;
    const rotated = await http().post(`/api/v1/api_keys/${old.id}/rotate`).set('Authorization', t.company.auth).expect(201);
    expect(rotated.body.api_key).toMatchObject({ name: 'Middleware', status: 'active', key: expect.stringMatching(/^rk_/) });
    expect(rotated.body.previous_api_key).toMatchObject({ id: old.id, status: 'rotated', replaced_by: rotated.body.api_key.id });
    const graceHours = (Date.parse(rotated.body.previous_api_key.expires_at) - Date.now()) / 3_600_000;
    expect(graceHours).toBeGreaterThan(23.9);
    expect(graceHours).toBeLessThanOrEqual(24);
    expect((await pushDocument(t.app, apiKeyAuth(rotated.body.api_key.key), customerDoc(3))).status).toBe(202);
    const during = await pushDocument(t.app, apiKeyAuth(old.key), customerDoc(4));
    expect(during.status).toBe(202);
    expect(during.headers.sunset).toBeDefined();
    expectProblem(await http().post(`/api/v1/api_keys/${old.id}/rotate`).set('Authorization', t.company.auth), 409);
    await setExpiry(old.id, `now() - interval '1 second'`);
    const after = await pushWith(old.key);
    expectProblem(after, 401);
    expect(after.body).toMatchObject({ code: 'auth.credential_expired', detail: expect.stringMatching(/rotated/) });
  });

  it("does not find, revoke or rotate another company's key", async () => {
    const other = await registerCompany(t.app);
    const created = await http().post('/api/v1/api_keys').set('Authorization', other.auth).send({}).expect(201);
    const id = created.body.api_key.id;
    expectProblem(await http().get(`/api/v1/api_keys/${id}`).set('Authorization', t.company.auth), 404);
    expectProblem(await http().delete(`/api/v1/api_keys/${id}`).set('Authorization', t.company.auth), 404);
    expectProblem(await http().post(`/api/v1/api_keys/${id}/rotate`).set('Authorization', t.company.auth), 404);
    expect((await pushWith(created.body.api_key.key)).status).toBe(202);
  });

  describe('401 on /v2/documents', () => {
    const challenge = 'ApiKey realm="push", Bearer realm="push"';

    it.each([
      ['no Authorization header', undefined, 'auth.missing_credential'],
      ['an unknown key', 'ApiKey rk_unknown', 'auth.invalid_credential'],
      ['a malformed ApiKey header', 'ApiKey', 'auth.invalid_credential'],
      ['an unknown bearer token', 'Bearer roa_unknown', 'auth.invalid_credential'],
      ['the REST API token', 'TOKEN', 'auth.invalid_credential'],
      ['Basic credentials', 'Basic dXNlcjpwYXNz', 'auth.invalid_credential'],
      ['a bare key', 'KEY', 'auth.invalid_credential'],
    ])('%s is a 401 problem document naming both schemes', async (_what, header, code) => {
      let req = http().post('/v2/documents').type('json');
      const value = header === 'TOKEN' ? t.company.auth : header === 'KEY' ? t.company.apiKey : header;
      if (value !== undefined) req = req.set('Authorization', value);
      const res = await req.send(customerDoc(1));
      expectProblem(res, 401);
      expect(res.body.code).toBe(code);
      expect(res.headers['www-authenticate']).toBe(challenge);
      if (code === 'auth.missing_credential') expect(res.body.detail).toContain('"ApiKey <API key>" or "Bearer <OAuth access token>"');
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM push_documents`);
      expect(n).toBe(0);
    });

    it('keeps the REST routes on the token alone', async () => {
      const res = await http().get('/api/v1/customers').set('Authorization', apiKeyAuth(t.company.apiKey));
      expectProblem(res, 401);
      expect(res.headers['www-authenticate']).toBe('Token realm="api"');
      expect(res.body.detail).toBe('The Authorization header must be "Token token=<API token>"');
    });
  });
});

describe('rate limits of push credentials', () => {
  const base = testConfig();
  const t = useTestApp(
    {
      rateLimit: { ...base.rateLimit, perMinute: 3 },
      integration: { ...base.integration, push: { ...base.integration.push, rateLimitPerMinute: 5 } },
    },
    { reset: 'once' },
  );

  it('gives an API key the push budget (PUSH_RATE_LIMIT_PER_MINUTE) and the REST token its own, smaller one', async () => {
    const company = await registerCompany(t.app);
    const push = (n: number) =>
      pushDocument(t.app, apiKeyAuth(company.apiKey), { document_type: 'customer', external_id: `K-${n}`, ...customerFields(n) });
    for (let n = 1; n <= 5; n++) expect((await push(n)).status).toBe(202);
    const limited = await push(6);
    expectProblem(limited, 429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const rest = () => t.http.get('/api/v1/customers').set('Authorization', company.auth);
    for (let n = 1; n <= 3; n++) expect((await rest()).status).toBe(200);
    expectProblem(await rest(), 429);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM push_documents`);
    expect(n).toBe(5);
  });
});

describe('API key lookup cache (API_KEY_CACHE_SECONDS)', () => {
  const t = useTestApp(withKeyCache(1), { reset: 'once' });

  it('applies a revocation through the API at once, and one made elsewhere within the cache time', async () => {
    const company = await registerCompany(t.app);
    const http = () => t.http;
    const push = (key: string, n: number) =>
      pushDocument(t.app, apiKeyAuth(key), { document_type: 'customer', external_id: `K-${n}`, ...customerFields(n) });
    const created = await http().post('/api/v1/api_keys').set('Authorization', company.auth).send({}).expect(201);
    expect((await push(created.body.api_key.key, 1)).status).toBe(202);
    await http().delete(`/api/v1/api_keys/${created.body.api_key.id}`).set('Authorization', company.auth).expect(204);
    expect((await push(created.body.api_key.key, 2)).body).toMatchObject({ code: 'auth.credential_revoked' });

    // Revoked by another replica (here: in the database): refused once the cached lookup is older than a second.
    const other = await http().post('/api/v1/api_keys').set('Authorization', company.auth).send({}).expect(201);
    expect((await push(other.body.api_key.key, 3)).status).toBe(202);
    await t.db.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [other.body.api_key.id.slice(4)]);
    afterCredentialCache(t.app);
    expect((await push(other.body.api_key.key, 4)).body).toMatchObject({ code: 'auth.credential_revoked' });
  });
});
