// The invoice page's operations in a real Chromium: edit the due date through the form (a refusal beside
// the field first) and see it on the page, release a manual_shipping invoice and confirm its letter was
// posted, with axe-core (no serious or critical violation) on the invoice, edit and confirmation pages.
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium, severeViolations, toNextPage } from './browser-support.js';
import { PASSWORD, registerUser } from './web-support.js';

describeInChromium('invoice operations in Chromium', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-invoice-operations-browser'));
  let browser: Browser;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => browser?.close());
  beforeEach(async () => {
    context = await browser.newContext({ locale: 'de-DE' });
    context.setDefaultTimeout(30_000);
    page = await context.newPage();
    consoleErrors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  });
  afterEach(async () => context?.close());

  /** Each test drives many pages on a shared, busy machine. */
  const LONG = 180_000;
  const accessible = async () => expect(await severeViolations(page)).toEqual([]);
  const notice = () => page.locator('#notice').textContent();
  const status = () => page.locator('.status').textContent();

  /** A signed-in user on the page of a new draft invoice of theirs. */
  async function onInvoicePage(shippingMode: string): Promise<string> {
    const user = await registerUser(t.app);
    const customer = await createCustomer(t.app, user.company, { name: 'Kunde AG' });
    const invoice = await invoiceApi(t.app, user.company).createOk({
      customer_id: customer.id,
      invoice_number: 'RE-2026-011',
      total: '1190',
      invoice_date: '2026-11-10',
      due_date: '2026-11-24',
      shipping_mode: shippingMode,
    });
    const path = `/invoices/${invoice.id}`;
    await page.goto(`${base}${path}`);
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(`${base}${path}`);
    return path;
  }

  it(
    'edits the due date through the form, with a refusal beside the field first, and shows it on the page',
    async () => {
      const path = await onInvoicePage('skip_shipping');
      await page.getByRole('link', { name: 'Rechnung bearbeiten' }).click();
      await page.waitForURL(`${base}${path}/edit`);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Rechnung RE-2026-011 bearbeiten');
      await accessible();

      await page.getByLabel('Fälligkeitsdatum').fill('2026-11-01');
      await toNextPage(page, () => page.getByRole('button', { name: 'Änderungen speichern' }).click());
      await expect(page.locator('#f-due_date-error').textContent()).resolves.toBe(
        'Bitte ein gültiges Datum angeben, nicht vor dem Rechnungsdatum.',
      );
      await expect(page.getByLabel('Fälligkeitsdatum').getAttribute('aria-describedby')).resolves.toBe('f-due_date-error');
      await accessible();

      await page.getByLabel('Fälligkeitsdatum').fill('2026-12-18');
      await page.getByRole('button', { name: 'Änderungen speichern' }).click();
      await page.waitForURL(`${base}${path}`);
      await expect(notice()).resolves.toBe('Die Änderungen wurden gespeichert.');
      await expect(page.locator('#status').textContent()).resolves.toContain('18.12.2026');
      await accessible();
      expect(consoleErrors.filter((text) => !text.includes('422'))).toEqual([]);
    },
    LONG,
  );

  it(
    'releases a manual_shipping invoice and confirms that its letter was posted',
    async () => {
      const path = await onInvoicePage('manual_shipping');
      await page.getByRole('link', { name: 'Freigeben und versenden' }).click();
      await page.getByRole('button', { name: 'Ja, Freigeben und versenden' }).click();
      await page.waitForURL(`${base}${path}`);
      await expect(status()).resolves.toBe('Entwurf');

      await page.getByRole('link', { name: 'Versand bestätigen' }).click();
      await page.waitForURL(`${base}${path}/confirm_shipping`);
      await expect(page.locator('#consequence').textContent()).resolves.toContain('selbst gedruckt und versandt');
      await accessible();
      await page.getByRole('button', { name: 'Ja, Versand bestätigen' }).click();
      await page.waitForURL(`${base}${path}`);
      await expect(notice()).resolves.toBe('Der Versand wurde bestätigt.');
      await expect(status()).resolves.toBe('Versendet');
      await expect(page.locator('[data-operation="confirm_shipping"]').count()).resolves.toBe(0);
      await accessible();
      expect(consoleErrors).toEqual([]);
    },
    LONG,
  );
});
