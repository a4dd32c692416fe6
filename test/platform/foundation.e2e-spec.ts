import { registerCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

describe('foundation', () => {
  const t = useTestApp();

  it('registers a company and authenticates its token at GET /', async () => {
    const company = await registerCompany(t.app, 'Muster GmbH');
    expect(company.id).toMatch(/^cmp-[0-9a-f-]{36}$/);
    const res = await t.http.get('/').set('Authorization', company.auth).expect(200);
    expect(res.body).toEqual({ company: { id: company.id, name: 'Muster GmbH' } });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('refuses a request without a credential with a problem document and a challenge', async () => {
    const res = await t.http.get('/').expect(401);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.headers['www-authenticate']).toBe('Token realm="api"');
    expect(res.body).toMatchObject({ status: 401, code: 'auth.missing_credential' });
  });

  it('answers liveness and readiness', async () => {
    await t.http.get('/health/live').expect(200, { status: 'ok' });
    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body.status).toBe('ok');
  });
});
