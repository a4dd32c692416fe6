// OAuth 2.0 authorization code with PKCE, driven as a browser and an ERP middleware would: register an
// application, open the consent page, log in and allow, exchange the code, push with the access token,
// refresh (rotation), and the failures RFC 6749 describes.
import fc from 'fast-check';
import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../src/app.setup.js';
import { runMigrations } from '../../src/database/migrate.js';
import { createRootLogger } from '../../src/logging/logger.js';
import { expectProblem, withoutRateLimits } from '../support/factories.js';
import { customerFields, quickPush, resetPushDatabase, waitForStatus } from '../support/push.js';
import { testConfig, testDatabaseUrl } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

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
    fields[match[1]] = match[2]
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&#39;/g, "'");
  }
  return fields;
}

describe('OAuth 2.0 authorization code flow', () => {
  let client: Client;
  let seq = 0;

  const t = useTestApp(quickPush());
  beforeEach(async () => {
    client = await registerClient();
  });

  const http = () => t.http;

  async function registerClient(): Promise<Client> {
    const email = `erp${++seq}@example.com`;
    const reg = await http()
      .post('/api/v1/registrations')
      .send({ company_name: `OAuth Firma ${seq}`, email, password: PASSWORD })
      .expect(201);
    const token = `Token token=${reg.body.api_token}`;
    const app = await http()
      .post('/api/v1/oauth_applications')
      .set('Authorization', token)
      .send({ name: 'SAP Integration Suite', redirect_uris: [REDIRECT] })
      .expect(201);
    expect(app.body.oauth_application).toMatchObject({
      id: expect.stringMatching(/^app-/),
      client_id: expect.stringMatching(/^rca_/),
      client_secret: expect.stringMatching(/^rcs_/),
      redirect_uris: [REDIRECT],
    });
    return { clientId: app.body.oauth_application.client_id, clientSecret: app.body.oauth_application.client_secret, token, email };
  }

  function authorizeQuery(challenge: string, extra: Record<string, string> = {}) {
    return {
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT,
      state: 'xyz-123',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'push',
      ...extra,
    };
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
    http()
      .post('/v2/documents')
      .set('Authorization', `Bearer ${accessToken}`)
      .send({ document_type: 'customer', external_id: `K-${n}`, ...customerFields(n) });

  it('logs in, consents, exchanges the code with PKCE, pushes with the access token, and refreshes with rotation', async () => {
    const { verifier, challenge } = pkce();
    const code = await authorize(challenge);
    const token = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }).expect(
      200,
    );
    expect(token.body).toMatchObject({
      token_type: 'Bearer',
      access_token: expect.stringMatching(/^roa_/),
      refresh_token: expect.stringMatching(/^ror_/),
      scope: 'push',
    });
    expect(token.body.expires_in).toBeGreaterThan(3500);
    expect(token.headers['cache-control']).toBe('no-store');

    const pushed = await push(token.body.access_token, 1).expect(202);
    const done = await waitForStatus(t.app, `Bearer ${token.body.access_token}`, pushed.body.document.id, ['processed']);
    expect(done.result?.type).toBe('customer');
    const [audit] = await t.db.query(`SELECT credential_type FROM push_audit_log WHERE step = 'received'`);
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
    const wrongVerifier = await tokenRequest({
      grant_type: 'authorization_code',
      code: await authorize(a.challenge),
      redirect_uri: REDIRECT,
      code_verifier: pkce().verifier,
    }).expect(400);
    expect(wrongVerifier.body.error).toBe('invalid_grant');
    const b = pkce();
    const code = await authorize(b.challenge);
    await t.db.query(`UPDATE oauth_authorization_codes SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
    const expired = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: b.verifier,
    }).expect(400);
    expect(expired.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
    const c = pkce();
    const redirect = await tokenRequest({
      grant_type: 'authorization_code',
      code: await authorize(c.challenge),
      redirect_uri: `${REDIRECT}/other`,
      code_verifier: c.verifier,
    });
    expect(redirect.status).toBe(400);
  });

  it('answers token requests with RFC 6749 errors: client authentication, grant type, body format', async () => {
    const wrongSecret = await http()
      .post('/oauth/token')
      .type('form')
      .auth(client.clientId, 'rcs_wrong')
      .send({ grant_type: 'refresh_token', refresh_token: 'x' });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.error).toBe('invalid_client');
    expect(wrongSecret.headers['www-authenticate']).toMatch(/^Basic/);
    const noSecret = await http().post('/oauth/token').type('form').send({
      grant_type: 'authorization_code',
      client_id: client.clientId,
      code: 'x',
      code_verifier: pkce().verifier,
      redirect_uri: REDIRECT,
    });
    expect(noSecret.body.error).toBe('invalid_client');
    const grant = await tokenRequest({ grant_type: 'password', username: client.email, password: PASSWORD }).expect(400);
    expect(grant.body.error).toMatch(/unauthorized_client|unsupported_grant_type/);
    const json = await http()
      .post('/oauth/token')
      .send({ grant_type: 'refresh_token', client_id: client.clientId, client_secret: client.clientSecret, refresh_token: 'x' })
      .expect(400);
    expect(json.body.error).toBe('invalid_request');
  });

  it('takes PKCE only as S256, and requires a registered redirect URI and a known client before showing the page', async () => {
    const noPkce = await http()
      .get('/oauth/authorize')
      .query({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, state: 's1' });
    expect(noPkce.status).toBe(200); // a confidential client may leave PKCE out
    for (const extra of [
      { code_challenge_method: 'plain' },
      { code_challenge: 'too-short' },
      { code_challenge: undefined as unknown as string, code_challenge_method: 'S256' },
    ]) {
      const query = { ...authorizeQuery(pkce().challenge), ...extra };
      if (query.code_challenge === undefined) delete (query as Partial<typeof query>).code_challenge;
      const refused = await http().get('/oauth/authorize').query(query).expect(302);
      const location = new URL(refused.headers.location);
      expect({ extra, error: location.searchParams.get('error'), state: location.searchParams.get('state') }).toEqual({
        extra,
        error: 'invalid_request',
        state: 'xyz-123',
      });
    }
    const evil = await http()
      .get('/oauth/authorize')
      .query(authorizeQuery(pkce().challenge, { redirect_uri: 'https://evil.example.com/cb' }))
      .expect(400);
    expect(evil.headers.location).toBeUndefined();
    expect(evil.text).toContain('redirect_uri');
    const unknown = await http()
      .get('/oauth/authorize')
      .query(authorizeQuery(pkce().challenge, { client_id: 'rca_unknown' }))
      .expect(400);
    expect(unknown.text).toContain('client_id');
  });

  it('works for a middleware destination: code without PKCE, exchanged with client_id and client_secret in the form or in Basic', async () => {
    /** What an SAP destination (OAuth2AuthorizationCode, token service URL <base>/oauth/token) sends. */
    const codeWithoutPkce = async () => {
      const page = await http()
        .get('/oauth/authorize')
        .query({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, state: 'mw' })
        .expect(200);
      const decision = await http()
        .post('/oauth/authorize')
        .type('form')
        .send({ ...formFields(page.text), email: client.email, password: PASSWORD, decision: 'allow' })
        .expect(302);
      return new URL(decision.headers.location).searchParams.get('code')!;
    };
    const inForm = await tokenRequest({ grant_type: 'authorization_code', code: await codeWithoutPkce(), redirect_uri: REDIRECT }).expect(
      200,
    );
    expect(inForm.body).toMatchObject({
      token_type: 'Bearer',
      access_token: expect.stringMatching(/^roa_/),
      refresh_token: expect.stringMatching(/^ror_/),
    });
    await push(inForm.body.access_token, 1).expect(202);
    const inBasic = await tokenRequest(
      { grant_type: 'authorization_code', code: await codeWithoutPkce(), redirect_uri: REDIRECT },
      true,
    ).expect(200);
    await push(inBasic.body.access_token, 2).expect(202);
    // Without PKCE the secret is what binds the code to the client: no secret, no token.
    const noSecret = await http()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'authorization_code', client_id: client.clientId, code: await codeWithoutPkce(), redirect_uri: REDIRECT });
    expect(noSecret.body.error).toBe('invalid_client');
    // A code_verifier for a code issued without a challenge is a downgrade attempt; a PKCE code needs its verifier.
    const downgrade = await tokenRequest({
      grant_type: 'authorization_code',
      code: await codeWithoutPkce(),
      redirect_uri: REDIRECT,
      code_verifier: pkce().verifier,
    }).expect(400);
    expect(downgrade.body.error).toBe('invalid_grant');
    const withPkce = await tokenRequest({
      grant_type: 'authorization_code',
      code: await authorize(pkce().challenge),
      redirect_uri: REDIRECT,
    }).expect(400);
    expect(withPkce.body.error).toBe('invalid_grant');
  });

  it('answers parameters sent as lists or objects with invalid_request, never a 5xx', async () => {
    for (const form of [
      `client_secret[]=x&client_id=${client.clientId}&grant_type=refresh_token&refresh_token=r`,
      `code[a]=1&grant_type=authorization_code&client_id=${client.clientId}&client_secret=${client.clientSecret}`,
      `grant_type=refresh_token&grant_type=authorization_code`,
    ]) {
      const res = await http().post('/oauth/token').set('Content-Type', 'application/x-www-form-urlencoded').send(form);
      expect({ form, status: res.status, error: res.body.error }).toEqual({ form, status: 400, error: 'invalid_request' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('shows the page again for a wrong password or a user of another company, and redirects a denial', async () => {
    const { challenge } = pkce();
    const page = await http().get('/oauth/authorize').query(authorizeQuery(challenge)).expect(200);
    const wrong = await http()
      .post('/oauth/authorize')
      .type('form')
      .send({ ...formFields(page.text), email: client.email, password: 'Falsch!Passwort1', decision: 'allow' })
      .expect(401);
    expect(wrong.text).toContain('Passwort ist falsch');
    const other = await registerClient();
    await http()
      .post('/oauth/authorize')
      .type('form')
      .send({ ...formFields(page.text), email: other.email, password: PASSWORD, decision: 'allow' })
      .expect(401);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM oauth_authorization_codes`);
    expect(n).toBe(0);
    const denied = await http()
      .post('/oauth/authorize')
      .type('form')
      .send({ ...formFields(page.text), decision: 'deny' })
      .expect(302);
    expect(new URL(denied.headers.location).searchParams.get('error')).toBe('access_denied');
  });

  it('refuses an expired access token with a 401 that says so, and stores every secret hashed', async () => {
    const { verifier, challenge } = pkce();
    const token = await tokenRequest({
      grant_type: 'authorization_code',
      code: await authorize(challenge),
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    }).expect(200);
    await t.db.query(`UPDATE oauth_tokens SET access_token_expires_at = now() - interval '1 second'`);
    const res = await push(token.body.access_token, 1);
    expectProblem(res, 401);
    expect(res.body).toMatchObject({ code: 'auth.credential_expired', detail: expect.stringMatching(/refresh_token/) });
    const dump = JSON.stringify(await t.db.query(`SELECT * FROM oauth_tokens t, oauth_applications a, oauth_authorization_codes c`));
    for (const secret of [token.body.access_token, token.body.refresh_token, client.clientSecret]) expect(dump).not.toContain(secret);
  });

  it('validates applications (redirect URIs, tenancy) and revokes their tokens with them', async () => {
    const bad = await http()
      .post('/api/v1/oauth_applications')
      .set('Authorization', client.token)
      .send({ name: 'X', redirect_uris: ['http://example.com/cb', 'not a url'] });
    expectProblem(bad, 422);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['redirect_uris[0]', 'redirect_uris[1]']);
    const list = await http().get('/api/v1/oauth_applications').set('Authorization', client.token).expect(200);
    const [application] = list.body.oauth_applications;
    expect(application).not.toHaveProperty('client_secret');
    const other = await registerClient();
    expectProblem(await http().get(`/api/v1/oauth_applications/${application.id}`).set('Authorization', other.token), 404);
    expectProblem(await http().delete(`/api/v1/oauth_applications/${application.id}`).set('Authorization', other.token), 404);
    const { verifier, challenge } = pkce();
    const token = await tokenRequest({
      grant_type: 'authorization_code',
      code: await authorize(challenge),
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    }).expect(200);
    await http().delete(`/api/v1/oauth_applications/${application.id}`).set('Authorization', client.token).expect(204);
    expectProblem(await push(token.body.access_token, 1), 401);
  });

  describe('fuzzing the authorization endpoints', () => {
    type Value = string | Value[] | { [key: string]: Value };
    const KEYS = [
      'grant_type',
      'code',
      'client_id',
      'client_secret',
      'refresh_token',
      'redirect_uri',
      'code_verifier',
      'scope',
      'state',
      'response_type',
      'code_challenge',
      'code_challenge_method',
      'email',
      'password',
      'decision',
      '__proto__',
      'constructor',
      '',
    ];
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('authorization_code', 'refresh_token', 'code', 'S256', 'plain', 'allow', REDIRECT, '%00', 'rca_x'),
    );
    const value: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        text,
        fc.array(tie('v'), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 5 }), tie('v'), { maxKeys: 2 }),
      ),
    })).v;
    const form = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 8 });
    /** Bracket names as form clients send nested values (`a[]=…`, `a[b]=…`). */
    const encode = (body: Record<string, Value>, realClient: boolean): string => {
      const pairs: Array<[string, string]> = [];
      const walk = (v: Value, name: string): void => {
        if (typeof v === 'string') pairs.push([name, v]);
        else if (Array.isArray(v)) v.forEach((item) => walk(item, `${name}[]`));
        else for (const [key, item] of Object.entries(v)) walk(item, `${name}[${key}]`);
      };
      for (const [key, v] of Object.entries(body)) walk(v, key);
      if (realClient) pairs.push(['client_id', client.clientId], ['client_secret', client.clientSecret]);
      return new URLSearchParams(pairs).toString();
    };

    it('answers every token request with a 4xx RFC 6749 error body (or a token), never a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(form, fc.boolean(), fc.option(fc.string({ maxLength: 30 })), async (body, realClient, basic) => {
          const req = http().post('/oauth/token').set('Content-Type', 'application/x-www-form-urlencoded');
          if (basic !== null) req.set('Authorization', `Basic ${Buffer.from(basic).toString('base64')}`);
          const res = await req.send(encode(body, realClient));
          expect({ body, status: res.status < 500 }).toEqual({ body, status: true });
          if (res.status >= 400) expect(typeof res.body.error).toBe('string');
        }),
        { numRuns: 80 },
      );
    }, 120_000);

    it('answers every authorization request with the page, an error page or a redirect, never a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(form, fc.boolean(), fc.boolean(), async (body, realClient, post) => {
          const encoded =
            encode(realClient ? { ...body, redirect_uri: REDIRECT } : body, false) + (realClient ? `&client_id=${client.clientId}` : '');
          const res = post
            ? await http().post('/oauth/authorize').set('Content-Type', 'application/x-www-form-urlencoded').send(encoded)
            : await http().get(`/oauth/authorize?${encoded}`);
          expect({ body, post, status: [200, 302, 400, 401, 429].includes(res.status) }).toEqual({ body, post, status: true });
        }),
        { numRuns: 80 },
      );
    }, 120_000);
  });
});

describe('OAuth secrets and the logs', () => {
  it('writes no client secret, password, code, code_verifier, access or refresh token into a log line', async () => {
    await runMigrations(testDatabaseUrl());
    const raw: string[] = [];
    const logger = createRootLogger('trace', { write: (line: string) => void raw.push(line) });
    const app = await createApp(testConfig(withoutRateLimits()), testDatabaseUrl(), logger);
    await app.init();
    try {
      await resetPushDatabase(app);
      const http = () => request(app.getHttpServer());
      const reg = await http()
        .post('/api/v1/registrations')
        .send({ company_name: 'Log GmbH', email: 'log@example.com', password: PASSWORD })
        .expect(201);
      const created = await http()
        .post('/api/v1/oauth_applications')
        .set('Authorization', `Token token=${reg.body.api_token}`)
        .send({ name: 'CPI', redirect_uris: [REDIRECT] })
        .expect(201);
      const { client_id: clientId, client_secret: clientSecret } = created.body.oauth_application;
      const { verifier, challenge } = pkce();
      const query = {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        state: 's',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      };
      const page = await http().get('/oauth/authorize').query(query).expect(200);
      const wrongPassword = 'Falsch!Passwort99';
      await http()
        .post('/oauth/authorize')
        .type('form')
        .send({ ...formFields(page.text), email: 'log@example.com', password: wrongPassword, decision: 'allow' })
        .expect(401);
      const decision = await http()
        .post('/oauth/authorize')
        .type('form')
        .send({ ...formFields(page.text), email: 'log@example.com', password: PASSWORD, decision: 'allow' })
        .expect(302);
      const code = new URL(decision.headers.location).searchParams.get('code')!;
      const form = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: clientId,
        client_secret: clientSecret,
      };
      const token = await http().post('/oauth/token').type('form').send(form).expect(200);
      await http().post('/oauth/token').type('form').send(form).expect(400); // the code again: invalid_grant, the grant revoked
      const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
      await http()
        .post('/oauth/token')
        .type('form')
        .set('Authorization', `Basic ${basic}`)
        .send({ grant_type: 'refresh_token', refresh_token: token.body.refresh_token })
        .expect(400);
      await http()
        .post('/oauth/token')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send(`client_id=${clientId}&client_secret[]=${clientSecret}&grant_type=refresh_token&refresh_token=${token.body.refresh_token}`)
        .expect(400);
      await http()
        .post('/v2/documents')
        .set('Authorization', `Bearer ${token.body.access_token}`)
        .send({ document_type: 'customer', external_id: 'K-1', ...customerFields(1) })
        .expect(401);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const logs = raw.join('');
      expect(logs).toContain('/oauth/token'); // the capture sees the token requests
      for (const secret of [
        clientSecret,
        PASSWORD,
        wrongPassword,
        code,
        verifier,
        token.body.access_token,
        token.body.refresh_token,
        basic,
        reg.body.api_token,
      ]) {
        expect(logs).not.toContain(secret);
      }
    } finally {
      await app.close();
    }
  }, 60_000);
});
