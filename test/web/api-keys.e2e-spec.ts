// The API key pages over HTTP: create (the key shown once), list, renew and revoke through the API's
// own service; a form without its CSRF token, a member and another company's key change nothing.
import { apiKeyAuth, pushDocument } from '../support/push.js';
import { useTestApp } from '../support/use-test-app.js';
import { agentOf, ownerAndMember, secretOf } from './keys-support.js';
import { csrfOf, registerUser } from './web-support.js';

describe('web app: API keys (HTTP)', () => {
  const t = useTestApp();

  type Key = { id: string; name: string; status: string };
  const keysOf = async (rest: { get: (path: string) => import('supertest').Test }) =>
    (await rest.get('/api/v1/api_keys').expect(200)).body.api_keys as Key[];

  it('sends a signed-out visitor to sign in', async () => {
    const res = await t.http.get('/integrations/api-keys').expect(303);
    expect(res.headers.location).toBe('/sign-in?next=%2Fintegrations%2Fapi-keys');
  });

  it('creates a key shown once (not cached), lists it, renews it and revokes it after a confirmation', async () => {
    const { agent, rest } = await ownerAndMember(t.app);
    const page = await agent.get('/integrations/api-keys').expect(200);
    expect(page.text).toContain('API-Schlüssel');
    const created = await agent
      .post('/integrations/api-keys')
      .type('form')
      .send({ _csrf: csrfOf(page.text), name: 'ERP Produktion' })
      .expect(201);
    expect(created.headers['cache-control']).toBe('no-store');
    expect(created.text).toContain('data-copy="new-key"');
    const secret = secretOf(created.text, 'new-key');
    expect(secret).toMatch(/^rk_/);
    expect((await pushDocument(t.app, apiKeyAuth(secret), {})).status).not.toBe(401);

    const made = (await keysOf(rest)).find((key) => key.name === 'ERP Produktion')!;
    const list = await agent.get('/integrations/api-keys').expect(200);
    expect(list.text).toContain(`data-key="${made.id}"`);
    expect(list.text).toContain(`${secret.slice(0, 8)}…`);
    expect(list.text).not.toContain(secret);
    // Used once (the push above), unlike the registration's key.
    expect(list.text.match(/Noch nie/g)).toHaveLength(1);

    const renewed = await agent
      .post(`/integrations/api-keys/${made.id}/rotate`)
      .type('form')
      .send({ _csrf: csrfOf(list.text) })
      .expect(201);
    const successor = secretOf(renewed.text, 'new-key');
    expect(successor).not.toBe(secret);
    expect(renewed.text).toContain('Der bisherige Schlüssel gilt noch bis');
    const after = await keysOf(rest);
    expect(after.find((key) => key.id === made.id)?.status).toBe('rotated');
    const current = after.find((key) => key.name === 'ERP Produktion' && key.id !== made.id)!;
    expect(current.status).toBe('active');

    const confirm = await agent.get(`/integrations/api-keys/${current.id}/revoke`).expect(200);
    expect(confirm.text).toContain('funktioniert danach sofort nicht mehr');
    expect((await keysOf(rest)).find((key) => key.id === current.id)?.status).toBe('active');
    const revoked = await agent
      .post(`/integrations/api-keys/${current.id}/revoke`)
      .type('form')
      .send({ _csrf: csrfOf(confirm.text) })
      .expect(303);
    expect(revoked.headers.location).toBe('/integrations/api-keys');
    expect((await agent.get('/integrations/api-keys').expect(200)).text).toContain('Der Schlüssel „ERP Produktion“ wurde widerrufen.');
    expect((await keysOf(rest)).find((key) => key.id === current.id)?.status).toBe('revoked');
    expect((await pushDocument(t.app, apiKeyAuth(successor), {})).status).toBe(401);
  });

  it('shows the API’s validation message beside the name and creates nothing', async () => {
    const { agent, rest } = await ownerAndMember(t.app);
    const before = await keysOf(rest);
    const page = await agent.get('/integrations/api-keys').expect(200);
    const res = await agent
      .post('/integrations/api-keys')
      .type('form')
      .send({ _csrf: csrfOf(page.text), name: 'x'.repeat(101) })
      .expect(422);
    expect(res.text).toContain('id="key-name-error"');
    expect(res.text).toContain('aria-invalid="true"');
    expect(await keysOf(rest)).toEqual(before);
  });

  it('refuses a form without its CSRF token and changes nothing', async () => {
    const { agent, rest } = await ownerAndMember(t.app);
    const [key] = await keysOf(rest);
    await agent.post('/integrations/api-keys').type('form').send({ name: 'Ohne Token' }).expect(403);
    await agent.post(`/integrations/api-keys/${key.id}/revoke`).type('form').send({ _csrf: 'falsch' }).expect(403);
    await agent.post(`/integrations/api-keys/${key.id}/rotate`).type('form').send({}).expect(403);
    expect(await keysOf(rest)).toEqual([key]);
  });

  it('gives a member the 403 page on the page and on every form, and changes nothing', async () => {
    const { agent, rest, memberAgent } = await ownerAndMember(t.app);
    const [key] = await keysOf(rest);
    const csrf = csrfOf((await memberAgent.get('/dashboard').expect(200)).text);
    for (const path of ['/integrations/api-keys', `/integrations/api-keys/${key.id}/revoke`, '/integrations/api-keys/expiry-banner']) {
      expect((await memberAgent.get(path).expect(403)).text).toContain('Nur für Inhaber');
    }
    for (const path of ['/integrations/api-keys', `/integrations/api-keys/${key.id}/rotate`, `/integrations/api-keys/${key.id}/revoke`]) {
      expect((await memberAgent.post(path).type('form').send({ _csrf: csrf, name: 'Mitglied' }).expect(403)).text).toContain(
        'Nur für Inhaber',
      );
    }
    expect(await keysOf(rest)).toEqual([key]);
    // The owner's dashboard loads the expiry banner; a member's does not ask for it.
    expect((await memberAgent.get('/dashboard').expect(200)).text).not.toContain('/integrations/api-keys/expiry-banner');
    expect((await agent.get('/dashboard').expect(200)).text).toContain('hx-get="/integrations/api-keys/expiry-banner"');
  });

  it('answers another company’s key, and one that does not exist, with the 404 page and leaves it alone', async () => {
    const { agent } = await ownerAndMember(t.app);
    const other = await registerUser(t.app);
    const otherAgent = await agentOf(t.app, other);
    const [theirs] = (await otherAgent.get('/api/v1/api_keys').set('Authorization', other.company.auth).expect(200)).body.api_keys as Key[];
    const csrf = csrfOf((await agent.get('/integrations/api-keys').expect(200)).text);
    await agent.get(`/integrations/api-keys/${theirs.id}/revoke`).expect(404);
    await agent.post(`/integrations/api-keys/${theirs.id}/revoke`).type('form').send({ _csrf: csrf }).expect(404);
    await agent.post(`/integrations/api-keys/${theirs.id}/rotate`).type('form').send({ _csrf: csrf }).expect(404);
    await agent.get('/integrations/api-keys/key-nonsense/revoke').expect(404);
    expect((await pushDocument(t.app, apiKeyAuth(other.company.apiKey), {})).status).not.toBe(401);
  });

  it('warns on the page and in the dashboard’s banner when a key expires within 14 days', async () => {
    const { agent, rest } = await ownerAndMember(t.app);
    expect((await agent.get('/integrations/api-keys/expiry-banner').expect(200)).text).not.toContain('data-key-expiry');
    const [key] = await keysOf(rest);
    await t.db.query(`UPDATE api_keys SET expires_at = now() + interval '10 days' WHERE id = $1`, [key.id.slice(key.id.indexOf('-') + 1)]);
    expect((await keysOf(rest))[0].status).toBe('expiring');
    const page = await agent.get('/integrations/api-keys').expect(200);
    expect(page.text).toContain('data-key-expiry');
    expect(page.text).toContain('Ein API-Schlüssel läuft bald ab');
    const banner = await agent.get('/integrations/api-keys/expiry-banner').expect(200);
    expect(banner.text).toContain('data-key-expiry');
  });
});
