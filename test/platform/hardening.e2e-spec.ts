// Input that used to end in a 500, and the smaller gaps an outside probe found: each answered with a
// clear 4xx problem (or the OAuth error page) and nothing stored.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { api, customerParams, errorFields, expectProblem, rowCounts, withoutRateLimits } from '../support/factories.js';
import { registerCompany, startTestApp, testConfig, type TestCompany } from '../support/test-app.js';

/** `{"a":{"a":…}}` nested `depth` levels deep, as text (JSON.stringify itself would recurse). */
const deepJson = (depth: number) => `${'{"name":'.repeat(depth)}"x"${'}'.repeat(depth)}`;

describe('input the service refuses instead of failing', () => {
  let app: INestApplication;
  let company: TestCompany;

  beforeAll(async () => {
    app = await startTestApp(withoutRateLimits());
    company = await registerCompany(app, 'Härtung GmbH');
  });
  afterAll(async () => app.close());

  it('refuses JSON nested deeper than the validator can walk with a 400, on every JSON route', async () => {
    const before = await rowCounts(app);
    for (const path of ['/api/v1/customers', '/api/v1/contacts', '/api/v1/invoices/inv-00000000-0000-0000-0000-000000000000/payments']) {
      const res = await request(app.getHttpServer()).post(path).set('Authorization', company.auth).type('json').send(deepJson(3000));
      expectProblem(res, 400);
      expect(res.body.detail).toMatch(/nested deeper than 32 levels/);
    }
    expect(await rowCounts(app)).toEqual(before);
  });

  it('refuses a NUL or another control character in a body field, a query parameter or a path, naming it', async () => {
    const before = await rowCounts(app);
    const body = await api(app, company).postJson('/api/v1/customers', customerParams({ name: 'Mus\u0000ter' }));
    expectProblem(body, 422);
    expect(errorFields(body)).toEqual(['name']);
    const form = await api(app, company).postForm('/api/v1/customers', customerParams({ city: 'Ber\u0007lin' }));
    expectProblem(form, 422);
    expect(errorFields(form)).toEqual(['city']);
    const query = await api(app, company).get('/api/v1/customers?page=%00');
    expectProblem(query, 400);
    expect(errorFields(query)).toEqual(['page']);
    const path = await api(app, company).get('/api/v1/customers/cus-%00');
    expectProblem(path, 400);
    expect(errorFields(path)).toEqual(['path']);
    const authorize = await request(app.getHttpServer()).get('/oauth/authorize?client_id=%00&response_type=code');
    expectProblem(authorize, 400);
    expect(errorFields(authorize)).toEqual(['client_id']);
    expect(await rowCounts(app)).toEqual(before);
  });

  it('keeps line breaks and tabs in free text', async () => {
    const res = await api(app, company)
      .postJson('/api/v1/customers', customerParams({ note: 'Zeile 1\r\nZeile 2\tEnde' }))
      .expect(201);
    expect(res.body.note).toBe('Zeile 1\r\nZeile 2\tEnde');
  });

  it('refuses bidirectional control characters in identifiers, not in names', async () => {
    const res = await api(app, company).postJson('/api/v1/customers', customerParams({ external_id: 'K-\u202e1001' }));
    expectProblem(res, 422);
    expect(errorFields(res)).toEqual(['external_id']);
    await api(app, company)
      .postJson('/api/v1/customers', customerParams({ name: 'שלום GmbH \u202b' }))
      .expect(201);
  });

  it('answers POST /oauth/authorize without a body with the error page (RFC 6749), not a crash', async () => {
    const res = await request(app.getHttpServer()).post('/oauth/authorize');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('the failed-authentication limit at the token endpoint', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const base = testConfig();
    app = await startTestApp({ rateLimit: { ...base.rateLimit, failedAuthPerMinute: 3 } });
  });
  afterAll(async () => app.close());

  it('counts wrong client secrets like every other credential', async () => {
    const company = await registerCompany(app);
    const created = await request(app.getHttpServer())
      .post('/api/v1/oauth_applications')
      .set('Authorization', company.auth)
      .send({ name: 'ERP', redirect_uris: ['https://erp.example.com/cb'] })
      .expect(201);
    const clientId = created.body.oauth_application.client_id as string;
    const wrong = () =>
      request(app.getHttpServer())
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: 'x', client_id: clientId, client_secret: 'rcs_wrong' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await wrong()).status);
    expect(statuses.slice(0, 3).every((s) => s === 400 || s === 401)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
    const limited = await wrong();
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(limited.body.error).toBe('invalid_client');
  });
});

describe('Strict-Transport-Security', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await startTestApp({ trustedProxies: ['127.0.0.1/8', '::1/128', '::ffff:127.0.0.1/128'] });
  });
  afterAll(async () => app.close());

  it('is sent when a trusted proxy reports https, and not over plain http', async () => {
    const https = await request(app.getHttpServer()).get('/health/live').set('X-Forwarded-Proto', 'https');
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const http = await request(app.getHttpServer()).get('/health/live');
    expect(http.headers['strict-transport-security']).toBeUndefined();
  });
});
