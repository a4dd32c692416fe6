// The key pages in a real Chromium: an API key created on the page authenticates a push and, revoked on
// the page, no longer does; the copy button copies the key; the dashboard shows the expiry banner; an
// OAuth application is registered with its secret shown once; axe-core finds no serious or critical
// violation on any of these pages.
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { apiKeyAuth, customerFields, pushAccepted, pushDocument, quickPush, waitForStatus } from '../support/push.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium, severeViolations, toNextPage } from './browser-support.js';
import { PASSWORD, registerUser, type WebUser } from './web-support.js';

describeInChromium('key pages in Chromium', () => {
  const t = useTestApp(() => quickPush({ retryLimit: 0 }));
  let browser: Browser;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];
  let user: WebUser;

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => browser?.close());
  beforeEach(async () => {
    user = await registerUser(t.app, 'Schlüssel GmbH');
    context = await browser.newContext({ locale: 'de-DE' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
    consoleErrors = [];
    page.on('console', (message) => {
      // A refused form answers 4xx on purpose, which Chromium reports as a failed load; anything else counts.
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) consoleErrors.push(message.text());
    });
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(/\/dashboard$/);
  });
  afterEach(async () => {
    expect(consoleErrors).toEqual([]);
    await context?.close();
  });

  async function accessible(): Promise<void> {
    expect(await severeViolations(page)).toEqual([]);
  }

  const heading = () => page.getByRole('heading', { level: 1 });
  const customer = (n: number) => ({ document_type: 'customer', external_id: `K-${n}`, ...customerFields(n) });

  it('creates a key that authenticates a push, copies it, and after revoking it on the page the key gets 401', async () => {
    await page.goto(`${base}/integrations/api-keys`);
    await expect(heading().textContent()).resolves.toBe('API-Schlüssel');
    await accessible();
    await page.getByLabel('Bezeichnung').fill('Browser ERP');
    await toNextPage(page, () => page.getByRole('button', { name: 'Schlüssel erstellen' }).click());
    await expect(heading().textContent()).resolves.toBe('Ihr neuer API-Schlüssel');
    const input = page.locator('#new-key');
    const key = await input.inputValue();
    expect(key).toMatch(/^rk_/);
    expect(await input.getAttribute('readonly')).not.toBeNull();
    await accessible();

    const copy = page.getByRole('button', { name: 'Kopieren' });
    await copy.click();
    await page.getByRole('button', { name: 'Kopiert' }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);

    const id = await pushAccepted(t.app, apiKeyAuth(key), customer(1));
    expect((await waitForStatus(t.app, apiKeyAuth(key), id, ['processed'])).status).toBe('processed');

    await page.goto(`${base}/integrations/api-keys`);
    await toNextPage(page, () => page.getByRole('link', { name: 'Schlüssel „Browser ERP“ widerrufen' }).click());
    await expect(heading().textContent()).resolves.toBe('Schlüssel „Browser ERP“ widerrufen?');
    await accessible();
    await page.getByRole('button', { name: 'Ja, Schlüssel widerrufen' }).click();
    await page.getByText('Der Schlüssel „Browser ERP“ wurde widerrufen.').waitFor({ timeout: 15_000 });
    await accessible();
    expect((await pushDocument(t.app, apiKeyAuth(key), customer(2))).status).toBe(401);
  });

  it('shows the expiry banner on the dashboard for a key that expires within 14 days', async () => {
    await t.db.query(`UPDATE api_keys SET expires_at = now() + interval '5 days'`);
    await page.goto(`${base}/dashboard`);
    const banner = page.locator('[data-key-expiry]');
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.textContent()).toContain('Ein API-Schlüssel läuft bald ab');
    await accessible();
    await banner.getByRole('link', { name: 'Zu den API-Schlüsseln' }).click();
    await page.waitForURL(/\/integrations\/api-keys$/);
    expect(await page.locator('[data-key-expiry]').count()).toBe(1);
  });

  it('registers an OAuth application with its secret shown once, and the list is accessible', async () => {
    await page.goto(`${base}/integrations/oauth-apps`);
    await accessible();
    await page.getByLabel('Name').fill('SAP Integration Suite');
    await page.getByLabel('Weiterleitungsadressen').fill('http://erp.example.com/cb');
    await page.getByRole('button', { name: 'Anwendung registrieren' }).click();
    await page.getByText('must use https').waitFor({ timeout: 15_000 });
    await accessible();
    await page.getByLabel('Weiterleitungsadressen').fill('https://middleware.example.com/oauth/callback');
    await toNextPage(page, () => page.getByRole('button', { name: 'Anwendung registrieren' }).click());
    await expect(heading().textContent()).resolves.toBe('Anwendung „SAP Integration Suite“ registriert');
    expect(await page.locator('#client-secret').inputValue()).toMatch(/^rcs_/);
    expect(await page.getByRole('button', { name: 'Kopieren' }).count()).toBe(1);
    await accessible();
    await page.goto(`${base}/integrations/oauth-apps`);
    await toNextPage(page, () => page.getByRole('link', { name: 'Alle Zugriffe von „SAP Integration Suite“ widerrufen' }).click());
    await accessible();
  });
});
