// The web app in a real Chromium (Debian's package, driven by playwright-core): sign-in, wrong password,
// sign-out, session expiry, a service_url opened after sign-in, another company's record, escaping,
// German and English, the CSRF refusal, and axe-core on every page (no serious or critical violation).
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createContact, createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium, severeViolations, toNextPage } from './browser-support.js';
import { PASSWORD, registerUser, type WebUser } from './web-support.js';

describeInChromium('web app in Chromium', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-browser'));
  let browser: Browser;
  let base: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => browser?.close());
  /** What the browser reported as errors: a CSP violation (an inline script or style) would be one. */
  let consoleErrors: string[];
  beforeEach(async () => {
    context = await browser.newContext({ locale: 'de-DE' });
    page = await context.newPage();
    consoleErrors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  });
  afterEach(async () => context?.close());

  /** axe-core on the page as it stands: no serious or critical violation. */
  async function accessible(): Promise<void> {
    expect(await severeViolations(page)).toEqual([]);
  }

  async function signInWith(user: WebUser, password = PASSWORD): Promise<void> {
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort').fill(password);
    await toNextPage(page, () => page.getByRole('button', { name: 'Anmelden' }).click());
  }

  const heading = () => page.getByRole('heading', { level: 1 });

  it('signs in, refuses a wrong password, and signs out', async () => {
    const user = await registerUser(t.app);
    await page.goto(`${base}/`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await accessible();
    await signInWith(user, 'Falsch!Passwort1');
    await expect(page.getByRole('alert').textContent()).resolves.toBe('E-Mail-Adresse oder Passwort ist falsch.');
    await accessible();
    await signInWith(user);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await expect(heading().textContent()).resolves.toBe('Übersicht');
    await accessible();
    const cookie = (await context.cookies()).find((c) => c.name === 'rs.sid')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    // Evaluated in the page (the test's own code, not a script of the app): what a script could read.
    await expect(page.evaluate('document.cookie')).resolves.not.toContain('rs.sid');
    await toNextPage(page, () => page.getByRole('button', { name: 'Abmelden' }).click());
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await expect(page.getByRole('status').textContent()).resolves.toBe('Sie haben sich abgemeldet.');
    await page.goto(`${base}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    // The wrong password's 401 is the one error the browser reports (a failed load); nothing broke the CSP.
    expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
  });

  it('opens a service_url from an API response after sign-in, and a session that expired asks to sign in again', async () => {
    const user = await registerUser(t.app);
    const customer = await createCustomer(t.app, user.company, { name: 'Kunde AG' });
    const invoice = await invoiceApi(t.app, user.company).createOk({
      customer_id: customer.id,
      invoice_number: 'RE-2026-001',
      total: '1190',
      invoice_date: '2026-11-10',
      due_date: '2026-11-24',
    });
    const path = new URL(invoice.service_url as string).pathname;
    await page.goto(`${base}${path}`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await signInWith(user);
    expect(new URL(page.url()).pathname).toBe(path);
    await expect(heading().textContent()).resolves.toBe('Rechnung RE-2026-001');
    await expect(page.locator('[data-amount="total"]').textContent()).resolves.toBe('1.190,00\u00a0€');
    await expect(page.getByText('24.11.2026').count()).resolves.toBeGreaterThan(0);
    await accessible();
    await toNextPage(page, () => page.getByRole('link', { name: 'Kunde AG' }).click());
    await expect(heading().textContent()).resolves.toBe('Kunde AG');
    await accessible();

    // The idle timeout passes (the row's expiry, as the store sets it): the next request is signed out.
    await t.db.query(`UPDATE web_sessions SET expires_at = now() - interval '1 second' WHERE sess->>'companyId' = $1`, [
      user.company.id.slice(4),
    ]);
    await page.goto(`${base}${path}`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await expect(page.getByRole('status').textContent()).resolves.toBe('Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.');
    await signInWith(user);
    expect(new URL(page.url()).pathname).toBe(path);
  });

  it("answers another company's record with the 404 page", async () => {
    const owner = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const customer = await createCustomer(t.app, owner.company, { name: 'Geheim KG' });
    await page.goto(`${base}${new URL(customer.service_url as string).pathname}`);
    await signInWith(stranger);
    await expect(heading().textContent()).resolves.toBe('Seite nicht gefunden');
    await expect(page.content()).resolves.not.toContain('Geheim KG');
    await accessible();
  });

  it('shows a customer named <script>alert(1)</script>, its contact and invoice with markup as text, never as markup', async () => {
    const user = await registerUser(t.app);
    const customer = await createCustomer(t.app, user.company, { name: '<script>alert(1)</script>' });
    const img = '<img src=x onerror=alert(1)>';
    const contact = await createContact(t.app, user.company, customer.id as string, { name: `${img} & Co` });
    const invoice = await invoiceApi(t.app, user.company).createOk({
      customer_id: customer.id,
      contact_id: contact.id,
      invoice_number: img,
      external_id: `${img}-ext`,
      total: '1190',
      invoice_date: '2026-11-10',
      due_date: '2026-11-24',
    });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${base}${new URL(customer.service_url as string).pathname}`);
    await signInWith(user);
    await expect(heading().textContent()).resolves.toBe('<script>alert(1)</script>');
    await expect(page.getByRole('cell', { name: `${img} & Co`, exact: true }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: img, exact: true }).count()).resolves.toBe(1);
    await expect(page.locator('main script, main img').count()).resolves.toBe(0);

    await page.goto(`${base}${new URL(invoice.service_url as string).pathname}`);
    await expect(heading().textContent()).resolves.toBe(`Rechnung ${img}`);
    await expect(page.getByText(`${img}-ext`, { exact: true }).count()).resolves.toBe(1);
    await expect(page.getByText(`${img} & Co`, { exact: true }).count()).resolves.toBe(1);
    await expect(page.title()).resolves.toContain(`Rechnung ${img}`);
    await expect(page.locator('main script, main img').count()).resolves.toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('switches to English and back, with amounts and dates in the language chosen', async () => {
    const user = await registerUser(t.app);
    const customer = await createCustomer(t.app, user.company);
    await invoiceApi(t.app, user.company).createOk({
      customer_id: customer.id,
      total: '1190',
      invoice_date: '2019-12-01',
      due_date: '2020-01-01',
      'options[autoskip_shipping]': 'true',
    });
    await page.goto(`${base}/dashboard`);
    await signInWith(user);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
    await expect(page.locator('[data-figure="overdue"]').textContent()).resolves.toBe('1.190,00\u00a0€');
    await toNextPage(page, () => page.getByRole('button', { name: 'English' }).click());
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await expect(heading().textContent()).resolves.toBe('Dashboard');
    await expect(page.locator('[data-figure="overdue"]').textContent()).resolves.toBe('€1,190.00');
    await accessible();
    // The choice belongs to the user: it holds in a new session.
    await toNextPage(page, () => page.getByRole('button', { name: 'Sign out' }).click());
    await signInWith(user);
    await expect(heading().textContent()).resolves.toBe('Dashboard');
    await toNextPage(page, () => page.getByRole('button', { name: 'Deutsch' }).click());
    await expect(heading().textContent()).resolves.toBe('Übersicht');
  });

  it('refuses a form whose CSRF token was tampered with, and stays signed in', async () => {
    const user = await registerUser(t.app);
    await page.goto(`${base}/dashboard`);
    await signInWith(user);
    await page.evaluate(`document.querySelectorAll('input[name="_csrf"]').forEach((input) => { input.value = 'forged'; })`);
    await toNextPage(page, () => page.getByRole('button', { name: 'Abmelden' }).click());
    await expect(heading().textContent()).resolves.toBe('Anfrage abgelehnt');
    await accessible();
    await page.goto(`${base}/dashboard`);
    await expect(heading().textContent()).resolves.toBe('Übersicht');
  });
});
