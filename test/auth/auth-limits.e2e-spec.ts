import { registerCompany, testConfig } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

describe('failed authentication limit', () => {
  const base = testConfig();
  const t = useTestApp({ rateLimit: { ...base.rateLimit, failedAuthPerMinute: 3 } }, { reset: 'manual' });

  it('answers 429 to an address that keeps guessing tokens, and still lets a right token from it through', async () => {
    const company = await registerCompany(t.app);
    const guess = (n: number) => t.http.get('/').set('Authorization', `Token token=rt_guessed${n}xxxxxxxxxxxxxxxxxxxxxxxxxxxx`);
    for (let i = 0; i < 3; i++) await guess(i).expect(401);
    const blocked = await guess(3).expect(429);
    expect(blocked.body.code).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await guess(4).expect(429);
    // ERP systems behind one NAT address: a neighbour's guessing does not lock a valid token out.
    await t.http.get('/').set('Authorization', company.auth).expect(200);
  });

  it('refuses a credential whose own identifier is being attacked, from any address', async () => {
    const company = await registerCompany(t.app);
    const token = company.auth.replace(/^Token token=/, '');
    // Same first characters as the real token, wrong rest: the attack names this credential.
    const attack = () => t.http.get('/').set('Authorization', `Token token=${token.slice(0, 12)}${'x'.repeat(31)}`);
    // (The address is over its budget already, from the test before: the answers are 401 or 429.)
    for (let i = 0; i < 4; i++) expect([401, 429]).toContain((await attack()).status);
    const refused = await t.http.get('/').set('Authorization', company.auth).expect(429);
    expect(refused.body.code).toBe('rate_limited');
  });
});
