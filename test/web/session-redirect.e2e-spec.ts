// A browser follows a 303 as soon as its headers arrive. What a form keeps in the session for the next
// page (a notice, a visitor's language) must be stored by then, even when storing it is slow: CI lost
// the notices "Die Einladung … wurde verschickt." and "Der Schlüssel … wurde widerrufen." that way.
import type { AddressInfo } from 'node:net';
import { WebSessionsRepository } from '../../src/web/web-sessions.repository.js';
import { useTestApp } from '../support/use-test-app.js';
import { csrfOf, PASSWORD, registerUser } from './web-support.js';

/** A browser's cookie jar and its habit: a redirect's target is asked for the moment the headers are in. */
class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  /** Answers the response with its headers only (fetch resolves on them; the body may still be on its way). */
  async request(path: string, form?: Record<string, string>): Promise<Response> {
    const res = await fetch(`${this.base}${path}`, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        accept: 'text/html',
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  }

  /** Posts the form and follows its redirect at once, as Chromium does; answers the next page's HTML. */
  async submit(path: string, form: Record<string, string>): Promise<string> {
    const answer = await this.request(path, form);
    expect(answer.status).toBe(303);
    const next = this.request(answer.headers.get('location')!);
    await answer.text();
    return (await next).text();
  }
}

describe('web app: the session is stored before a redirect leaves', () => {
  const t = useTestApp();
  let base: string;

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    // Storing a session takes 400 ms, as under a busy database.
    const sessions = t.app.get(WebSessionsRepository);
    const store = sessions.set.bind(sessions);
    sessions.set = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return store(...args);
    };
  });

  it('shows the notice of a revoked key on the page the redirect leads to', async () => {
    const user = await registerUser(t.app);
    const browser = new Browser(base);
    const signIn = await browser.request('/sign-in');
    const signedIn = await browser.request('/sign-in', { _csrf: csrfOf(await signIn.text()), email: user.email, password: PASSWORD });
    expect(signedIn.status).toBe(303);
    const list = await (await browser.request('/integrations/api-keys')).text();
    const keyId = /data-key="([^"]+)"/.exec(list)![1];

    const after = await browser.submit(`/integrations/api-keys/${keyId}/revoke`, { _csrf: csrfOf(list) });
    expect(after).toContain('wurde widerrufen.');
    // Shown once: the next visit has no notice.
    expect(await (await browser.request('/integrations/api-keys')).text()).not.toContain('wurde widerrufen.');
  });

  it('answers the page a visitor came from in the language they chose', async () => {
    const browser = new Browser(base);
    const signIn = await (await browser.request('/sign-in')).text();
    expect(signIn).toContain('Anmelden');
    const after = await browser.submit('/language', { _csrf: csrfOf(signIn), locale: 'en', back: '/sign-in' });
    expect(after).toContain('<html lang="en"');
  });
});
