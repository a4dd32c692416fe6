// The customer pages in a real Chromium (Debian's package, driven by playwright-core): find a customer by
// typing (htmx swaps the results in place), sort by a column, open the customer and change its shipping
// mode and reminder stop with the keyboard, in German and in English, with axe-core on both pages.
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { api, createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium, severeViolations, toNextPage } from './browser-support.js';
import { PASSWORD, registerUser, type WebUser } from './web-support.js';

describeInChromium('customer pages in Chromium', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-customers-browser'));
  let browser: Browser;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  /** What the browser reported as errors: a CSP violation (an inline script or style) would be one. */
  let consoleErrors: string[];

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => browser?.close());
  beforeEach(async () => {
    context = await browser.newContext({ locale: 'de-DE' });
    page = await context.newPage();
    consoleErrors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  });
  afterEach(async () => context?.close());

  async function accessible(): Promise<void> {
    expect(await severeViolations(page)).toEqual([]);
  }

  async function signInWith(user: WebUser): Promise<void> {
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await toNextPage(page, () => page.getByRole('button', { name: 'Anmelden' }).click());
  }

  const heading = () => page.getByRole('heading', { level: 1 });
  const names = () => page.locator('#customer-results tbody tr td:first-child a').allTextContents();

  /** Three customers with open invoices of 300, 100 and 200. */
  async function seed(user: WebUser) {
    const invoices = invoiceApi(t.app, user.company);
    const created: Record<string, string> = {};
    for (const [name, total] of [
      ['Bäckerei Brot KG', '300'],
      ['Autohaus Alt GmbH', '100'],
      ['Café Central', '200'],
    ]) {
      const customer = await createCustomer(t.app, user.company, { name });
      created[name] = customer.id as string;
      await invoices.createOk({
        customer_id: customer.id,
        total,
        invoice_date: '2026-11-01',
        due_date: '2099-01-01',
        'options[autoskip_shipping]': 'true',
      });
    }
    return created;
  }

  it('finds a customer by typing, sorts by open amount, opens it and changes its shipping mode (German)', async () => {
    const user = await registerUser(t.app);
    const ids = await seed(user);
    await page.goto(`${base}/customers`);
    await signInWith(user);
    expect(new URL(page.url()).pathname).toBe('/customers');
    await expect(heading().textContent()).resolves.toBe('Kunden');
    await expect(names()).resolves.toEqual(['Autohaus Alt GmbH', 'Bäckerei Brot KG', 'Café Central']);
    await accessible();

    // A mark on the window survives only if htmx swaps the results instead of loading a new page.
    await page.evaluate('window.notReloaded = true');
    await page.getByLabel('Suche').pressSequentially('café', { delay: 20 });
    await page.waitForURL((url) => url.searchParams.get('q') === 'café');
    await expect(page.locator('#customer-results tbody tr').count()).resolves.toBe(1);
    await expect(names()).resolves.toEqual(['Café Central']);
    await page.getByLabel('Suche').fill('');
    await page.getByRole('button', { name: 'Suchen' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === '');
    await expect(page.locator('#customer-results tbody tr').count()).resolves.toBe(3);

    await page.getByRole('link', { name: 'Offener Betrag' }).click();
    await page.waitForURL((url) => url.searchParams.get('sort') === 'open');
    await expect(names()).resolves.toEqual(['Bäckerei Brot KG', 'Café Central', 'Autohaus Alt GmbH']);
    await expect(page.getByRole('columnheader', { name: 'Offener Betrag' }).getAttribute('aria-sort')).resolves.toBe('descending');
    await expect(page.locator('[data-customer] [data-figure="open"]').first().textContent()).resolves.toBe('300,00\u00a0€');
    await page.getByRole('link', { name: 'Offener Betrag' }).click();
    await page.waitForURL((url) => url.searchParams.get('dir') === 'asc');
    await expect(names()).resolves.toEqual(['Autohaus Alt GmbH', 'Café Central', 'Bäckerei Brot KG']);
    await expect(page.getByRole('columnheader', { name: 'Offener Betrag' }).getAttribute('aria-sort')).resolves.toBe('ascending');
    // A search after sorting keeps the sort.
    await page.getByLabel('Suche').fill('r');
    await page.getByRole('button', { name: 'Suchen' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === 'r' && url.searchParams.get('sort') === 'open');
    await expect(names()).resolves.toEqual(['Café Central', 'Bäckerei Brot KG']);
    await expect(page.evaluate('window.notReloaded')).resolves.toBe(true);
    await accessible();

    await toNextPage(page, () => page.getByRole('link', { name: 'Bäckerei Brot KG' }).click());
    expect(new URL(page.url()).pathname).toBe(`/customers/${ids['Bäckerei Brot KG']}`);
    await expect(heading().textContent()).resolves.toBe('Bäckerei Brot KG');
    await expect(page.locator('[data-figure="open"]').textContent()).resolves.toBe('300,00\u00a0€ (1 Rechnung)');
    await accessible();

    // By keyboard: the box, the select, then Tab on to the button and Enter.
    await page.getByLabel('Keine automatischen Mahnungen').focus();
    await page.keyboard.press('Space');
    await page.getByLabel('Versandart').selectOption({ label: 'Post' });
    await page.getByLabel('Versandart').focus();
    await page.keyboard.press('Tab');
    await expect(page.evaluate('document.activeElement.textContent')).resolves.toBe('Speichern');
    await toNextPage(page, () => page.keyboard.press('Enter'));
    await expect(page.getByRole('status').filter({ hasText: 'gespeichert' }).textContent()).resolves.toBe(
      'Die Einstellungen wurden gespeichert.',
    );
    await expect(page.getByLabel('Versandart').inputValue()).resolves.toBe('post');
    await expect(page.getByLabel('Keine automatischen Mahnungen').isChecked()).resolves.toBe(true);
    await accessible();
    const stored = await api(t.app, user.company).get(`/api/v1/customers/${ids['Bäckerei Brot KG']}`).expect(200);
    expect(stored.body).toMatchObject({ shipping_mode: 'post', stop_automatic_reminders: true });

    await page.getByRole('link', { name: 'Alle Rechnungen dieses Kunden' }).waitFor();
    await expect(page.getByRole('link', { name: 'Alle Rechnungen dieses Kunden' }).getAttribute('href')).resolves.toBe(
      `/invoices?customer=${ids['Bäckerei Brot KG']}`,
    );
    expect(consoleErrors).toEqual([]);
  }, 120_000);

  it('shows the list and the customer page in English and saves the shipping mode there', async () => {
    const user = await registerUser(t.app);
    const ids = await seed(user);
    await page.goto(`${base}/customers`);
    await signInWith(user);
    await toNextPage(page, () => page.getByRole('button', { name: 'English' }).click());
    await expect(heading().textContent()).resolves.toBe('Customers');
    await expect(page.getByText('3 customers', { exact: true }).count()).resolves.toBe(1);
    await expect(page.getByRole('columnheader', { name: 'Open amount' }).count()).resolves.toBe(1);
    await expect(page.locator('[data-customer] [data-figure="open"]').first().textContent()).resolves.toBe('€100.00');
    await accessible();

    await page.getByLabel('Search').fill('zzz');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === 'zzz');
    await expect(page.getByText('No customer matches “zzz”.').count()).resolves.toBe(1);

    await page.goto(`${base}/customers/${ids['Café Central']}`);
    await expect(heading().textContent()).resolves.toBe('Café Central');
    await expect(page.getByRole('heading', { name: 'Reminders and shipping' }).count()).resolves.toBe(1);
    await expect(page.getByLabel('Shipping mode').inputValue()).resolves.toBe('');
    await page.getByLabel('Shipping mode').selectOption({ label: 'E-mail and post' });
    await toNextPage(page, () => page.getByRole('button', { name: 'Save' }).click());
    await expect(page.getByRole('status').filter({ hasText: 'saved' }).textContent()).resolves.toBe('The settings were saved.');
    await expect(page.getByLabel('Shipping mode').inputValue()).resolves.toBe('dual_shipping');
    await accessible();
    const stored = await api(t.app, user.company).get(`/api/v1/customers/${ids['Café Central']}`).expect(200);
    expect(stored.body).toMatchObject({ shipping_mode: 'dual_shipping', stop_automatic_reminders: false });
    expect(consoleErrors).toEqual([]);
  }, 120_000);
});
