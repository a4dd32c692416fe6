import { registerCompany, testConfig } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

describe('failed authentication limit', () => {
  const base = testConfig();
  const t = useTestApp({ rateLimit: { ...base.rateLimit, failedAuthPerMinute: 3 } }, { reset: 'manual' });

  it('answers 429 to an address that keeps guessing tokens, even with a right token then', async () => {
    const company = await registerCompany(t.app);
    const guess = () => t.http.get('/').set('Authorization', 'Token token=guessed');
    for (let i = 0; i < 3; i++) await guess().expect(401);
    const blocked = await guess().expect(429);
    expect(blocked.body.code).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await t.http.get('/').set('Authorization', company.auth).expect(429);
  });
});
