// The web app over HTTP (no browser): the way in at `/`, sign-in and its session, CSRF, the record
// pages behind the API's service_url, tenancy, the dashboard's aggregates, headers and assets.
import request from 'supertest';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { createCustomer } from '../support/factories.js';
import { PUBLIC_URL } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';
import { todayIn } from '../../src/common/calendar-date.js';
import { csrfOf, PASSWORD, registerUser, signIn } from './web-support.js';

describe('web app (HTTP)', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-app'));
  const agent = () => request.agent(t.app.getHttpServer());
  /** The stored sessions signed in to the company (sessions outlive the tables' reset between tests). */
  const sessionsOf = async (companyId: string) =>
    (await t.db.query(`SELECT sid FROM web_sessions WHERE sess->>'companyId' = $1 AND expires_at > now()`, [companyId.slice(4)])).length;

  it('sends a browser at / to the dashboard and answers API clients at / exactly as before', async () => {
    await t.http.get('/').set('Accept', 'text/html,application/xhtml+xml').expect(302).expect('Location', '/dashboard');
    const { company } = await registerUser(t.app);
    const api = await t.http.get('/').set('Authorization', company.auth).expect(200);
    expect(api.body).toEqual({ company: { id: company.id, name: company.name } });
    // An API client that asks for HTML but sends its credential is an API client.
    await t.http.get('/').set('Accept', 'text/html').set('Authorization', company.auth).expect(200);
    const anonymous = await t.http.get('/').expect(401);
    expect(anonymous.body.code).toBe('auth.missing_credential');
  });

  it('signs in with the registered e-mail and password, with a new session id and a safe cookie', async () => {
    const { email, company } = await registerUser(t.app);
    const browser = agent();
    const page = await browser.get('/sign-in').expect(200);
    const visitorCookie = String(page.headers['set-cookie']).match(/rs\.sid=([^;]+)/)?.[1];
    const res = await browser
      .post('/sign-in')
      .type('form')
      .send({ _csrf: csrfOf(page.text), email: email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard');
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('rs.sid='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie.match(/rs\.sid=([^;]+)/)?.[1]).not.toBe(visitorCookie);
    expect(await sessionsOf(company.id)).toBe(1);
    // The idle timeout (8 hours by default) is the stored session's expiry, moved on by every request.
    const [{ minutes }] = await t.db.query(
      `SELECT extract(epoch FROM expires_at - now()) / 60 AS minutes FROM web_sessions WHERE sess->>'companyId' = $1`,
      [company.id.slice(4)],
    );
    expect(Number(minutes)).toBeGreaterThan(479);
    expect(Number(minutes)).toBeLessThanOrEqual(480);
    await browser
      .get('/dashboard')
      .expect(200)
      .expect('Content-Type', /text\/html/);
  });

  it('refuses a wrong password with the form again, and counts it against the failed-auth limit', async () => {
    const { email } = await registerUser(t.app);
    const res = await signIn(agent(), email, 'Falsch!Passwort1');
    expect(res.status).toBe(401);
    expect(res.text).toContain('E-Mail-Adresse oder Passwort ist falsch.');
    expect(res.text).not.toContain('Falsch!Passwort1');
    const unknown = await signIn(agent(), 'niemand@example.com');
    expect(unknown.status).toBe(401);
  });

  it('ends the session on the server at sign-out', async () => {
    const { email, company } = await registerUser(t.app);
    const browser = agent();
    await signIn(browser, email);
    const dashboard = await browser.get('/dashboard').expect(200);
    const out = await browser
      .post('/sign-out')
      .type('form')
      .send({ _csrf: csrfOf(dashboard.text) })
      .expect(303);
    expect(out.headers.location).toBe('/sign-in?reason=signed-out');
    expect(await sessionsOf(company.id)).toBe(0);
    await browser.get('/dashboard').expect(303);
  });

  it('refuses a POST without a valid CSRF token and changes nothing', async () => {
    const { email } = await registerUser(t.app);
    const browser = agent();
    await browser.get('/sign-in').expect(200);
    const res = await browser.post('/sign-in').type('form').send({ _csrf: 'forged', email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Anfrage abgelehnt');
    await browser.get('/dashboard').expect(303);
    // A signed-in user's sign-out without the token keeps the session.
    await signIn(browser, email);
    await browser.post('/sign-out').type('form').send({}).expect(403);
    await browser.get('/dashboard').expect(200);
  });

  it('opens a service_url after sign-in, and answers another company and an unknown id with the same 404 page', async () => {
    const { company, email } = await registerUser(t.app, 'Eigene GmbH');
    const other = await registerUser(t.app, 'Fremde GmbH');
    const invoices = invoiceApi(t.app, company);
    const customer = await createCustomer(t.app, company, { name: 'Kunde & Söhne' });
    const invoice = await invoiceApi(t.app, company).createOk({
      customer_id: customer.id,
      invoice_number: 'RE-4711',
      total: '1190.00',
      invoice_date: '2026-11-10',
      due_date: '2026-11-24',
    });
    const path = new URL(invoice.service_url as string).pathname;
    expect(invoice.service_url).toBe(`${PUBLIC_URL}/invoices/${invoice.id}`);
    const browser = agent();
    const first = await browser.get(path).expect(303);
    expect(first.headers.location).toBe(`/sign-in?next=${encodeURIComponent(path)}`);
    const signedIn = await signIn(browser, email, PASSWORD, path);
    expect(signedIn.headers.location).toBe(path);
    const page = await browser.get(path).expect(200);
    expect(page.text).toContain('Rechnung RE-4711');
    expect(page.text).toContain('1.190,00\u00a0€');
    expect(page.text).toContain('24.11.2026');
    expect(page.text).toContain('Kunde &amp; Söhne');
    const customerPage = await browser.get(new URL(customer.service_url as string).pathname).expect(200);
    expect(customerPage.text).toContain(`/invoices/${invoice.id}`);
    await invoices.invoice(invoice.id as string).expect(200);

    const stranger = agent();
    await signIn(stranger, other.email);
    const foreign = await stranger.get(path).expect(404);
    const unknown = await stranger.get('/invoices/inv-00000000-0000-4000-8000-000000000000').expect(404);
    const malformed = await stranger.get('/customers/cus-nonsense').expect(404);
    const foreignCustomer = await stranger.get(new URL(customer.service_url as string).pathname).expect(404);
    expect(foreign.text).not.toContain('RE-4711');
    const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0];
    expect(main(foreign.text)).toContain('Seite nicht gefunden');
    for (const res of [unknown, malformed, foreignCustomer]) expect(main(res.text)).toBe(main(foreign.text));
  });

  it('shows the dashboard figures as the sums of the open invoices, in German and in English', async () => {
    const { company, email } = await registerUser(t.app);
    const customer = await createCustomer(t.app, company);
    const invoices = invoiceApi(t.app, company);
    const today = todayIn('Europe/Berlin');
    const tenDaysAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 10 * 86_400_000).toISOString().slice(0, 10);
    const created = [];
    for (const [total, invoiceDate, due] of [
      ['100.00', tenDaysAgo, '2099-01-01'],
      ['1090.00', '2019-12-01', '2020-01-01'],
      ['500.00', '2019-12-01', '2020-01-01'],
    ]) {
      // Shipped by the company itself (autoskip): sent, and open, at once.
      const invoice = await invoices.createOk({
        customer_id: customer.id,
        total,
        invoice_date: invoiceDate,
        due_date: due,
        'options[autoskip_shipping]': 'true',
      });
      expect(invoice.invoice_status).toBe('sent');
      created.push(invoice);
    }
    await invoices.payForm(created[1].id as string, { amount: '90', payment_date: today }).expect(201);
    await invoices.act(created[2].id as string, 'write_off').expect(200);
    // A draft is not open and counts nowhere.
    await invoices.createOk({ customer_id: customer.id, total: '7000', invoice_date: tenDaysAgo, due_date: today });

    // The API's view of the same company: the open invoices and their open amounts.
    const listed = (await invoices.list('?per_page=100').expect(200)).body.invoices as Array<Record<string, string>>;
    const open = listed.filter((i) => ['sent', 'due'].includes(i.invoice_status));
    expect(open.reduce((sum, i) => sum + Number(i.open_amount), 0)).toBe(1100);

    const browser = agent();
    await signIn(browser, email);
    const page = await browser.get('/dashboard').expect(200);
    const row = (key: string, count: number, amount: string) =>
      new RegExp(`data-row="${key}">[\\s\\S]*?<td class="num">${count}</td><td class="num">${amount.replace('.', '\\.')}\u00a0€`);
    expect(page.text).toMatch(/data-figure="open"[^>]*>1\.100,00\u00a0€/);
    expect(page.text).toContain('2 Rechnungen');
    expect(page.text).toMatch(/data-figure="overdue"[^>]*>1\.000,00\u00a0€/);
    expect(page.text).toMatch(row('d90', 1, '1.000,00'));
    expect(page.text).toMatch(row('notDue', 1, '100,00'));
    expect(page.text).toMatch(row('d1_30', 0, '0,00'));
    expect(page.text).toMatch(row('sent', 2, '1.100,00'));
    // DSO: 1,100 open against 100 invoiced in the last 90 days (the draft is no sale), over 90 days.
    expect(page.text).toMatch(/data-figure="dso"[^>]*>990 Tage</);
    expect(page.text).toMatch(new RegExp(`data-month="${today.slice(0, 7)}">[\\s\\S]*?<td class="num">90,00\u00a0€`));
    expect(page.text.match(/data-month="/g)).toHaveLength(12);
    const switched = await browser
      .post('/language')
      .type('form')
      .send({ _csrf: csrfOf(page.text), locale: 'en', back: '/dashboard' })
      .expect(303);
    expect(switched.headers.location).toBe('/dashboard');
    const english = await browser.get('/dashboard').expect(200);
    expect(english.text).toContain('<html lang="en">');
    expect(english.text).toContain('Total open');
    expect(english.text).toMatch(/data-figure="open"[^>]*>€1,100\.00/);
    expect(english.text).toMatch(/data-figure="dso"[^>]*>990 days</);
  });

  it('serves helmet headers with a CSP without inline scripts, and hashed assets with a year of cache', async () => {
    const page = await t.http.get('/sign-in').expect(200);
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    const assets = [...page.text.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    // The stylesheet, htmx and our own small script (the copy button).
    expect(assets).toHaveLength(3);
    for (const asset of assets) {
      expect(asset).toMatch(/-[0-9a-f]{16}\.(css|js)$/);
      const res = await t.http.get(asset).expect(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    await t.http.get('/assets/web-0000000000000000.css').expect(404);
    // The API keeps its own headers: no CSP added to a JSON answer.
    const api = await t.http.get('/health/live').expect(200);
    expect(api.headers['content-security-policy']).toBeUndefined();
  });
});
