// The web app's protections that need an app of their own: the failed sign-in limit (a small budget)
// and the cookies of production (Secure, only over HTTPS).
import request from 'supertest';
import { useTestApp } from '../support/use-test-app.js';
import { registerUser, signIn } from './web-support.js';

describe('web app sign-in limit', () => {
  const t = useTestApp({ rateLimit: { perMinute: 1000, failedAuthPerMinute: 3 } });

  it('answers failed sign-ins beyond the limit with a 429 page that names the wait, even for the right password', async () => {
    const { email } = await registerUser(t.app);
    const browser = request.agent(t.app.getHttpServer());
    // Three failures a minute are allowed; the fourth is answered with the 429 page.
    for (let i = 0; i < 4; i++) {
      const res = await signIn(browser, email, `Falsch!Passwort${i}`);
      expect(res.status).toBe(i < 3 ? 401 : 429);
    }
    const limited = await signIn(browser, email);
    expect(limited.status).toBe(429);
    const seconds = Number(limited.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(limited.text).toContain(`Bitte warten Sie ${seconds} Sekunden`);
    await browser.get('/dashboard').expect(303);
  });
});

describe('web app in production', () => {
  const t = useTestApp({ env: 'production', trustedProxies: ['loopback'] }, { reset: 'manual' });

  it('sets the session and CSRF cookies Secure (the CSRF one with the __Host- prefix), and only over HTTPS', async () => {
    const secure = await t.http.get('/sign-in').set('X-Forwarded-Proto', 'https').expect(200);
    const cookies = secure.headers['set-cookie'] as unknown as string[];
    const session = cookies.find((c) => c.startsWith('rs.sid='));
    const csrf = cookies.find((c) => c.startsWith('__Host-rs.csrf='));
    for (const cookie of [session, csrf]) {
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
    }
    // Over plain HTTP the browser would send a Secure cookie back to no one: express-session sets none.
    const plain = await t.http.get('/sign-in').expect(200);
    expect(((plain.headers['set-cookie'] as unknown as string[] | undefined) ?? []).some((c) => c.startsWith('rs.sid='))).toBe(false);
    expect(secure.headers['content-security-policy']).toContain('upgrade-insecure-requests');
  });
});
