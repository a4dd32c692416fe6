// OAuth 2.0 authorization code with PKCE, driven as a browser and an ERP middleware would: register an
// application, open the consent page, log in and allow, exchange the code, push with the access token,
// refresh (rotation), and the failures RFC 6749 describes.
import type { INestApplication } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { expectProblem } from './support/factories.js';
import { customerFields, startPushApp, waitForStatus } from './support/push.js';
import { dataSource, resetDatabase } from './support/test-app.js';

const REDIRECT = 'https://middleware.example.com/oauth/callback';
const PASSWORD = 'Sicher!Passwort1';

interface Client {
  clientId: string;
  clientSecret: string;
  token: string;
  email: string;
}

const pkce = () => {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** The hidden fields of the consent form, as a browser would send them back. */
function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]] = match[2].replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'");
  }
  return fields;
}

describe('OAuth 2.0 authorization code flow', () => {
  let app: INestApplication;
  let client: Client;
  let seq = 0;

  beforeAll(async () => {
    app = await startPushApp();
  });
  afterAll(async () => app.close());
  beforeEach(async () => {
    await resetDatabase(app);
    client = await registerClient();
  });

  const http = () => request(app.getHttpServer());

  async function registerClient(): Promise<Client> {
    const email = `erp${++seq}@example.com`;
    const reg = await http().post('/api/v1/registrations').send({ company_name: `OAuth Firma ${seq}`, email, password: PASSWORD }).expect(201);
    const token = `Token token=${reg.body.api_token}`;
    const app = await http().post('/api/v1/oauth_applications').set('Authorization', token).send({ name: 'SAP Integration Suite', redirect_uris: [REDIRECT] }).expect(201);
    expect(app.body.oauth_application).toMatchObject({ id: expect.stringMatching(/^app-/), client_id: expect.stringMatching(/^rca_/), client_secret: expect.stringMatching(/^rcs_/), redirect_uris: [REDIRECT] });
    return { clientId: app.body.oauth_application.client_id, clientSecret: app.body.oauth_application.client_secret, token, email };
  }

  function authorizeQuery(challenge: string, extra: Record<string, string> = {}) {
    return { response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, state: 'xyz-123', code_challenge: challenge, code_challenge_method: 'S256', scope: 'push', ...extra };
  }

  /** GET the consent page, log in, allow: the code from the redirect. */
  async function authorize(challenge: string, login: { email?: string; password?: string } = {}): Promise<string> {
    const page = await http().get('/oauth/authorize').query(authorizeQuery(challenge)).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.text).toContain('SAP Integration Suite');
    const decision = await http()
      .post('/oauth/authorize')
      .type('form')
      .send({ ...formFields(page.text), email: login.email ?? client.email, password: login.password ?? PASSWORD, decision: 'allow' });
    expect(decision.status).toBe(302);
    const location = new URL(decision.headers.location);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('xyz-123');
    return location.searchParams.get('code')!;
  }

  const tokenRequest = (form: Record<string, string>, basic = false) => {
    const req = http().post('/oauth/token').type('form');
    if (basic) return req.auth(client.clientId, client.clientSecret).send(form);
    return req.send({ client_id: client.clientId, client_secret: client.clientSecret, ...form });
  };

  const push = (accessToken: string, n: number) =>
    http().post('/v2/documents').set('Authorization', `Bearer ${accessToken}`).send({ document_type: 'customer', external_id: `K-${n}`, ...customerFields(n) });

  it('logs in, consents, exchanges the code with PKCE, pushes with the access token, and refreshes with rotation', async () => {
    const { verifier, challenge } = pkce();
    const code = await authorize(challenge);
    const token = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }).expect(200);
    expect(token.body).toMatchObject({ token_type: 'Bearer', access_token: expect.stringMatching(/^roa_/), refresh_token: expect.stringMatching(/^ror_/), scope: 'push' });
    expect(token.body.expires_in).toBeGreaterThan(3500);
    expect(token.headers['cache-control']).toBe('no-store');

    const pushed = await push(token.body.access_token, 1).expect(202);
    const done = await waitForStatus(app, `Bearer ${token.body.access_token}`, pushed.body.document.id, ['processed']);
    expect(done.result?.type).toBe('customer');
    const [audit] = await dataSource(app).query(`SELECT credential_type FROM push_audit_log WHERE step = 'received'`);
    expect(audit.credential_type).toBe('bearer');

    // Refresh with HTTP Basic client authentication: a new pair, the old refresh token is spent.
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: token.body.refresh_token }, true).expect(200);
    expect(refreshed.body.refresh_token).not.toBe(token.body.refresh_token);
    expect(refreshed.body.access_token).not.toBe(token.body.access_token);
    await push(refreshed.body.access_token, 2).expect(202);
    // The spent refresh token coming back means it leaked: refused, and the whole authorization is revoked.
    const replayed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: token.body.refresh_token }).expect(400);
    expect(replayed.body).toMatchObject({ error: 'invalid_grant' });
    const revoked = await push(refreshed.body.access_token, 3);
    expectProblem(revoked, 401);
    expect(revoked.body.code).toBe('auth.credential_revoked');
    await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token }).expect(400);
  });

  it('uses a code once: a second exchange is invalid_grant and revokes the tokens of the first', async () => {
    const { verifier, challenge } = pkce();
    const code = await authorize(challenge);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier };
    const first = await tokenRequest(form).expect(200);
    const second = await tokenRequest(form).expect(400);
    expect(second.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    expectProblem(await push(first.body.access_token, 1), 401);
  });

  it('refuses a wrong code_verifier, an expired code and a wrong redirect_uri', async () => {
    const a = pkce();
    const wrongVerifier = await tokenRequest({ grant_type: 'authorization_code', code: await authorize(a.challenge), redirect_uri: REDIRECT, code_verifier: pkce().verifier }).expect(400);
    expect(wrongVerifier.body.error).toBe('invalid_grant');
    const b = pkce();
    const code = await authorize(b.challenge);
    await dataSource(app).query(`UPDATE oauth_authorization_codes SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
    const expired = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: b.verifier }).expect(400);
    expect(expired.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
    const c = pkce();
    const redirect = await tokenRequest({ grant_type: 'authorization_code', code: await authorize(c.challenge), redirect_uri: `${REDIRECT}/other`, code_verifier: c.verifier });
    expect(redirect.status).toBe(400);
  });

  it('answers token requests with RFC 6749 errors: client authentication, grant type, body format', async () => {
    const wrongSecret = await http().post('/oauth/token').type('form').auth(client.clientId, 'rcs_wrong').send({ grant_type: 'refresh_token', refresh_token: 'x' });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.error).toBe('invalid_client');
    expect(wrongSecret.headers['www-authenticate']).toMatch(/^Basic/);
    const noSecret = await http().post('/oauth/token').type('form').send({ grant_type: 'authorization_code', client_id: client.clientId, code: 'x', code_verifier: pkce().verifier, redirect_uri: REDIRECT });
    expect(noSecret.body.error).toBe('invalid_client');
    const grant = await tokenRequest({ grant_type: 'password', username: client.email, password: PASSWORD }).expect(400);
    expect(grant.body.error).toMatch(/unauthorized_client|unsupported_grant_type/);
    const json = await http().post('/oauth/token').send({ grant_type: 'refresh_token', client_id: client.clientId, client_secret: client.clientSecret, refresh_token: 'x' }).expect(400);
    expect(json.body.error).toBe('invalid_request');
  });

  it('requires PKCE S256, a registered redirect URI and a known client before showing the page', async () => {
    const noPkce = await http().get('/oauth/authorize').query({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, state: 's1' }).expect(302);
    const location = new URL(noPkce.headers.location);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('s1');
    const plain = await http().get('/oauth/authorize').query(authorizeQuery(pkce().challenge, { code_challenge_method: 'plain' })).expect(302);
    expect(new URL(plain.headers.location).searchParams.get('error')).toBe('invalid_request');
    const evil = await http().get('/oauth/authorize').query(authorizeQuery(pkce().challenge, { redirect_uri: 'https://evil.example.com/cb' })).expect(400);
    expect(evil.headers.location).toBeUndefined();
    expect(evil.text).toContain('redirect_uri');
    const unknown = await http().get('/oauth/authorize').query(authorizeQuery(pkce().challenge, { client_id: 'rca_unknown' })).expect(400);
    expect(unknown.text).toContain('client_id');
  });

  it('shows the page again for a wrong password or a user of another company, and redirects a denial', async () => {
    const { challenge } = pkce();
    const page = await http().get('/oauth/authorize').query(authorizeQuery(challenge)).expect(200);
    const wrong = await http().post('/oauth/authorize').type('form').send({ ...formFields(page.text), email: client.email, password: 'Falsch!Passwort1', decision: 'allow' }).expect(401);
    expect(wrong.text).toContain('Passwort ist falsch');
    const other = await registerClient();
    await http().post('/oauth/authorize').type('form').send({ ...formFields(page.text), email: other.email, password: PASSWORD, decision: 'allow' }).expect(401);
    const [{ n }] = await dataSource(app).query(`SELECT count(*)::int AS n FROM oauth_authorization_codes`);
    expect(n).toBe(0);
    const denied = await http().post('/oauth/authorize').type('form').send({ ...formFields(page.text), decision: 'deny' }).expect(302);
    expect(new URL(denied.headers.location).searchParams.get('error')).toBe('access_denied');
  });

  it('refuses an expired access token with a 401 that says so, and stores every secret hashed', async () => {
    const { verifier, challenge } = pkce();
    const token = await tokenRequest({ grant_type: 'authorization_code', code: await authorize(challenge), redirect_uri: REDIRECT, code_verifier: verifier }).expect(200);
    await dataSource(app).query(`UPDATE oauth_tokens SET access_token_expires_at = now() - interval '1 second'`);
    const res = await push(token.body.access_token, 1);
    expectProblem(res, 401);
    expect(res.body).toMatchObject({ code: 'auth.credential_expired', detail: expect.stringMatching(/refresh_token/) });
    const dump = JSON.stringify(await dataSource(app).query(`SELECT * FROM oauth_tokens t, oauth_applications a, oauth_authorization_codes c`));
    for (const secret of [token.body.access_token, token.body.refresh_token, client.clientSecret]) expect(dump).not.toContain(secret);
  });

  it('validates applications (redirect URIs, tenancy) and revokes their tokens with them', async () => {
    const bad = await http().post('/api/v1/oauth_applications').set('Authorization', client.token).send({ name: 'X', redirect_uris: ['http://example.com/cb', 'not a url'] });
    expectProblem(bad, 422);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['redirect_uris[0]', 'redirect_uris[1]']);
    const list = await http().get('/api/v1/oauth_applications').set('Authorization', client.token).expect(200);
    const [application] = list.body.oauth_applications;
    expect(application).not.toHaveProperty('client_secret');
    const other = await registerClient();
    expectProblem(await http().get(`/api/v1/oauth_applications/${application.id}`).set('Authorization', other.token), 404);
    expectProblem(await http().delete(`/api/v1/oauth_applications/${application.id}`).set('Authorization', other.token), 404);
    const { verifier, challenge } = pkce();
    const token = await tokenRequest({ grant_type: 'authorization_code', code: await authorize(challenge), redirect_uri: REDIRECT, code_verifier: verifier }).expect(200);
    await http().delete(`/api/v1/oauth_applications/${application.id}`).set('Authorization', client.token).expect(204);
    expectProblem(await push(token.body.access_token, 1), 401);
  });
});
