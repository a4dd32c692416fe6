// The OAuth application pages over HTTP: register (the API's validation beside the fields; the secret
// shown once), a new secret, revoking every granted token and deleting, each after a confirmation and
// through the API's own service; CSRF, a member and another company's application change nothing.
import { createHash, randomBytes } from 'node:crypto';
import { useTestApp } from '../support/use-test-app.js';
import { agentOf, ownerAndMember, secretOf } from './keys-support.js';
import { csrfOf, PASSWORD, registerUser, type WebUser } from './web-support.js';

const REDIRECT = 'https://middleware.example.com/oauth/callback';

describe('web app: OAuth applications (HTTP)', () => {
  const t = useTestApp();

  type App = { id: string; name: string; client_id: string; revoked_at: string | null };
  const appsOf = async (rest: { get: (path: string) => import('supertest').Test }) =>
    (await rest.get('/api/v1/oauth_applications').expect(200)).body.oauth_applications as App[];

  /** The authorization code flow as the middleware runs it: consent by `user`, the code exchanged for an access token. */
  async function grant(user: WebUser, clientId: string, clientSecret: string): Promise<string> {
    const verifier = randomBytes(48).toString('base64url');
    const query = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      state: 's',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      scope: 'push',
    };
    const consent = await t.http.get('/oauth/authorize').query(query).expect(200);
    const hidden = Object.fromEntries(
      [...consent.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2].replace(/&amp;/g, '&')]),
    );
    const decision = await t.http
      .post('/oauth/authorize')
      .type('form')
      .send({ ...hidden, email: user.email, password: PASSWORD, decision: 'allow' })
      .expect(302);
    const code = new URL(decision.headers.location).searchParams.get('code')!;
    const token = await t.http
      .post('/oauth/token')
      .type('form')
      .send({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: clientId,
        client_secret: clientSecret,
      })
      .expect(200);
    return token.body.access_token as string;
  }

  /** 401 once the token is revoked; any other answer (a 404 for the unknown document) means it still works. */
  const bearerStatus = async (token: string) =>
    (await t.http.get('/v2/documents/doc-00000000-0000-4000-8000-000000000000').set('Authorization', `Bearer ${token}`)).status;

  async function registered() {
    const signed = await ownerAndMember(t.app);
    const page = await signed.agent.get('/integrations/oauth-apps').expect(200);
    const res = await signed.agent
      .post('/integrations/oauth-apps')
      .type('form')
      .send({ _csrf: csrfOf(page.text), name: 'SAP Integration Suite', redirect_uris: `${REDIRECT}\r\n\r\nhttp://localhost:8080/cb\r\n` })
      .expect(201);
    const [app] = await appsOf(signed.rest);
    return { ...signed, app, created: res, secret: secretOf(res.text, 'client-secret') };
  }

  it('registers an application: client id and the secret shown once (not cached), then listed without the secret', async () => {
    const { agent, rest, app, created, secret, owner } = await registered();
    expect(created.headers['cache-control']).toBe('no-store');
    expect(created.text).toContain(app.client_id);
    expect(created.text).toContain('data-copy="client-secret"');
    expect(secret).toMatch(/^rcs_/);
    expect((await rest.get(`/api/v1/oauth_applications/${app.id}`).expect(200)).body.oauth_application.redirect_uris).toEqual([
      REDIRECT,
      'http://localhost:8080/cb',
    ]);
    const list = await agent.get('/integrations/oauth-apps').expect(200);
    expect(list.text).toContain(`data-app="${app.id}"`);
    expect(list.text).toContain(app.client_id);
    expect(list.text).not.toContain(secret);
    expect(await bearerStatus(await grant(owner, app.client_id, secret))).toBe(404);
  });

  it('shows the API’s validation beside the fields and registers nothing', async () => {
    const { agent, rest } = await ownerAndMember(t.app);
    const page = await agent.get('/integrations/oauth-apps').expect(200);
    const form = { _csrf: csrfOf(page.text), name: 'Middleware' };
    const noUri = await agent
      .post('/integrations/oauth-apps')
      .type('form')
      .send({ ...form, redirect_uris: '' })
      .expect(422);
    expect(noUri.text).toContain('redirect_uris needs at least one URL');
    expect(noUri.text).toContain('id="app-redirect-uris-error"');
    const plain = await agent
      .post('/integrations/oauth-apps')
      .type('form')
      .send({ ...form, redirect_uris: 'http://erp.example.com/cb' })
      .expect(422);
    expect(plain.text).toContain('must use https');
    expect(plain.text).toContain('http://erp.example.com/cb');
    const noName = await agent
      .post('/integrations/oauth-apps')
      .type('form')
      .send({ ...form, name: '', redirect_uris: REDIRECT })
      .expect(422);
    expect(noName.text).toContain('id="app-name-error"');
    expect(await appsOf(rest)).toEqual([]);
  });

  it('regenerates the secret after a confirmation: the old one stops working, the new one works', async () => {
    const { agent, app, secret, owner } = await registered();
    const confirm = await agent.get(`/integrations/oauth-apps/${app.id}/regenerate`).expect(200);
    expect(confirm.text).toContain('funktioniert danach sofort nicht mehr');
    const res = await agent
      .post(`/integrations/oauth-apps/${app.id}/regenerate`)
      .type('form')
      .send({ _csrf: csrfOf(confirm.text) })
      .expect(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const fresh = secretOf(res.text, 'client-secret');
    expect(fresh).not.toBe(secret);
    await expect(grant(owner, app.client_id, secret)).rejects.toThrow();
    expect(await bearerStatus(await grant(owner, app.client_id, fresh))).toBe(404);
  });

  it('revokes every token granted after a confirmation; the application stays and may be authorized again', async () => {
    const { agent, rest, app, secret, owner } = await registered();
    const tokens = [await grant(owner, app.client_id, secret), await grant(owner, app.client_id, secret)];
    const confirm = await agent.get(`/integrations/oauth-apps/${app.id}/revoke-tokens`).expect(200);
    expect(await bearerStatus(tokens[0])).toBe(404);
    await agent
      .post(`/integrations/oauth-apps/${app.id}/revoke-tokens`)
      .type('form')
      .send({ _csrf: csrfOf(confirm.text) })
      .expect(303);
    expect((await agent.get('/integrations/oauth-apps').expect(200)).text).toContain(
      '2 Zugriffe von „SAP Integration Suite“ wurden widerrufen.',
    );
    for (const token of tokens) expect(await bearerStatus(token)).toBe(401);
    expect((await appsOf(rest))[0].revoked_at).toBeNull();
    expect(await bearerStatus(await grant(owner, app.client_id, secret))).toBe(404);
  });

  it('deletes the application after a confirmation: its tokens stop working and it is no longer listed', async () => {
    const { agent, rest, app, secret, owner } = await registered();
    const token = await grant(owner, app.client_id, secret);
    const confirm = await agent.get(`/integrations/oauth-apps/${app.id}/delete`).expect(200);
    await agent
      .post(`/integrations/oauth-apps/${app.id}/delete`)
      .type('form')
      .send({ _csrf: csrfOf(confirm.text) })
      .expect(303);
    const list = await agent.get('/integrations/oauth-apps').expect(200);
    expect(list.text).toContain('Die Anwendung „SAP Integration Suite“ wurde gelöscht.');
    expect(list.text).not.toContain(`data-app="${app.id}"`);
    expect((await appsOf(rest))[0].revoked_at).not.toBeNull();
    expect(await bearerStatus(token)).toBe(401);
    await agent.get(`/integrations/oauth-apps/${app.id}/regenerate`).expect(404);
  });

  it('refuses forms without the CSRF token, and a member gets the 403 page everywhere; nothing changes', async () => {
    const { agent, rest, app, secret, owner, memberAgent } = await registered();
    const token = await grant(owner, app.client_id, secret);
    const actions = ['regenerate', 'revoke-tokens', 'delete'];
    await agent.post('/integrations/oauth-apps').type('form').send({ name: 'X', redirect_uris: REDIRECT }).expect(403);
    for (const action of actions) await agent.post(`/integrations/oauth-apps/${app.id}/${action}`).type('form').send({}).expect(403);
    const csrf = csrfOf((await memberAgent.get('/dashboard').expect(200)).text);
    for (const path of ['', ...actions.map((action) => `/${app.id}/${action}`)]) {
      expect((await memberAgent.get(`/integrations/oauth-apps${path}`).expect(403)).text).toContain('Nur für Inhaber');
      const posted = await memberAgent
        .post(`/integrations/oauth-apps${path}`)
        .type('form')
        .send({ _csrf: csrf, name: 'X', redirect_uris: REDIRECT })
        .expect(403);
      expect(posted.text).toContain('Nur für Inhaber');
    }
    expect(await appsOf(rest)).toEqual([app]);
    expect(await bearerStatus(token)).toBe(404);
    await grant(owner, app.client_id, secret);
  });

  it('answers another company’s application with the 404 page and leaves it alone', async () => {
    const { app, secret, owner } = await registered();
    const stranger = await registerUser(t.app);
    const agent = await agentOf(t.app, stranger);
    const csrf = csrfOf((await agent.get('/integrations/oauth-apps').expect(200)).text);
    for (const action of ['regenerate', 'revoke-tokens', 'delete']) {
      await agent.get(`/integrations/oauth-apps/${app.id}/${action}`).expect(404);
      await agent.post(`/integrations/oauth-apps/${app.id}/${action}`).type('form').send({ _csrf: csrf }).expect(404);
    }
    await agent.get('/integrations/oauth-apps/app-nonsense/delete').expect(404);
    expect(await bearerStatus(await grant(owner, app.client_id, secret))).toBe(404);
  });
});
