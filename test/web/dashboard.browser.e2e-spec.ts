// The dashboard's "needs you" counters and the error pages in a real Chromium (Debian's package,
// driven by playwright-core), each page checked with axe-core (no serious or critical violation).
import { jest } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { todayIn } from '../../src/common/calendar-date.js';
import { NeedsYouRepository } from '../../src/web/dashboard/needs-you.repository.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { countsOfTheApi, seedNeedsYou } from './dashboard-seed.js';
import { describeInChromium, launchChromium, severeViolations, toNextPage } from './browser-support.js';
import { PASSWORD, registerUser, type WebUser } from './web-support.js';

// Chromium and axe on a shared, busy machine: a test takes up to half a minute, well within this.
jest.setTimeout(120_000);

describeInChromium('dashboard and error pages in Chromium', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-dashboard-browser'));
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
  beforeEach(async () => {
    context = await browser.newContext({ locale: 'de-DE' });
    page = await context.newPage();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await context?.close();
  });

  async function accessible(): Promise<void> {
    expect(await severeViolations(page)).toEqual([]);
  }

  async function signInWith(user: WebUser): Promise<void> {
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await toNextPage(page, () => page.getByRole('button', { name: 'Anmelden' }).click());
  }

  const heading = () => page.getByRole('heading', { level: 1 });
  const counter = (key: string) => page.locator(`[data-needs="${key}"] td`);

  it("shows the counters and figures of a seeded company as the API's lists and sums, in German and English", async () => {
    const user = await registerUser(t.app);
    const expected = await seedNeedsYou(t.app, user.company);
    const api = await countsOfTheApi(t.app, user.company, todayIn('Europe/Berlin'));
    expect(api).toEqual(expected);
    const listed = (await invoiceApi(t.app, user.company).list('?per_page=100').expect(200)).body.invoices as Array<Record<string, string>>;
    const openSum = listed.reduce((sum, i) => sum + Number(i.open_amount), 0);

    await page.goto(`${base}/dashboard`);
    await signInWith(user);
    await expect(heading().textContent()).resolves.toBe('Übersicht');
    const region = page.getByRole('region', { name: 'Zu erledigen' });
    await expect(region.count()).resolves.toBe(1);
    await expect(counter('shipments').textContent()).resolves.toBe(String(api.shipments));
    await expect(counter('approvals').textContent()).resolves.toBe(String(api.approvals));
    await expect(counter('deadLetters').textContent()).resolves.toBe(String(api.deadLetters));
    await expect(counter('failedPulls').textContent()).resolves.toBe(String(api.failedPulls));
    await expect(counter('blocked').textContent()).resolves.toBe(String(api.blocked));
    await expect(region.getByRole('link', { name: 'Sendungen mit Handlungsbedarf' }).getAttribute('href')).resolves.toBe(
      '/exceptions/shipments',
    );
    await expect(region.getByRole('link', { name: 'Rechnungen mit Mahnsperre' }).getAttribute('href')).resolves.toBe('/exceptions/blocked');
    await expect(region.getByRole('link', { name: 'Fehlgeschlagene ERP-Abrufe' }).getAttribute('href')).resolves.toBe(
      '/exceptions/erp-pulls',
    );
    // Every seeded invoice is open and overdue: the figures are the API's sum of the open amounts.
    const money = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(openSum);
    await expect(page.locator('[data-figure="open"]').textContent()).resolves.toBe(money);
    await expect(page.locator('[data-figure="overdue"]').textContent()).resolves.toBe(money);
    await accessible();

    await toNextPage(page, () => page.getByRole('button', { name: 'English' }).click());
    const english = page.getByRole('region', { name: 'To do' });
    await expect(english.getByRole('link', { name: 'Dead-lettered push documents' }).getAttribute('href')).resolves.toBe(
      '/push/dead-letters',
    );
    await expect(counter('deadLetters').textContent()).resolves.toBe(String(api.deadLetters));
    await accessible();
  });

  it('says "nothing to do" for a company with nothing waiting', async () => {
    const user = await registerUser(t.app);
    await page.goto(`${base}/dashboard`);
    await signInWith(user);
    for (const key of ['shipments', 'approvals', 'deadLetters', 'failedPulls', 'blocked']) {
      await expect(counter(key).textContent()).resolves.toBe('nichts zu tun');
    }
    await accessible();
  });

  it('shows the 404 page at an unknown path, signed out and with the navigation when signed in, reachable by keyboard', async () => {
    const response = await page.goto(`${base}/gibt-es-nicht`);
    expect(response?.status()).toBe(404);
    await expect(heading().textContent()).resolves.toBe('Seite nicht gefunden');
    await expect(page.getByRole('button', { name: 'Abmelden' }).count()).resolves.toBe(0);
    await accessible();
    // Its language switch works for a visitor too, and leads back to the same page.
    await toNextPage(page, () => page.getByRole('button', { name: 'English' }).click());
    expect(new URL(page.url()).pathname).toBe('/gibt-es-nicht');
    await expect(heading().textContent()).resolves.toBe('Page not found');
    await toNextPage(page, () => page.getByRole('button', { name: 'Deutsch' }).click());

    const user = await registerUser(t.app, 'Tastatur GmbH');
    await page.goto(`${base}/dashboard`);
    await signInWith(user);
    expect((await page.goto(`${base}/rechnungen/2026`))?.status()).toBe(404);
    await expect(heading().textContent()).resolves.toBe('Seite nicht gefunden');
    await expect(page.getByRole('navigation').getByText('Tastatur GmbH').count()).resolves.toBe(1);
    await accessible();
    // Tab through the page to the way back, and follow it with Enter.
    let focused = '';
    for (let i = 0; i < 20 && focused !== 'Zur Übersicht'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate('document.activeElement?.textContent ?? ""');
    }
    expect(focused).toBe('Zur Übersicht');
    await toNextPage(page, () => page.keyboard.press('Enter'));
    await expect(heading().textContent()).resolves.toBe('Übersicht');
  });

  it('shows a 500 page with the request id when the dashboard fails, and the dashboard again afterwards', async () => {
    const user = await registerUser(t.app);
    await page.goto(`${base}/dashboard`);
    await signInWith(user);
    jest.spyOn(t.app.get(NeedsYouRepository), 'counts').mockRejectedValueOnce(new Error('the database went away'));
    const response = await page.reload();
    expect(response?.status()).toBe(500);
    await expect(heading().textContent()).resolves.toBe('Ein Fehler ist aufgetreten');
    const requestId = await response!.headerValue('x-request-id');
    await expect(page.locator('[data-request-id]').textContent()).resolves.toBe(`Vorgangsnummer für Rückfragen: ${requestId}`);
    await expect(page.content()).resolves.not.toContain('the database went away');
    await accessible();
    await page.reload();
    await expect(heading().textContent()).resolves.toBe('Übersicht');
  });
});
