// The invoice page's actions in a real Chromium (Debian's package, driven by playwright-core): add and
// delete a payment, block and write off an invoice, in German and in English, with axe-core (no serious
// or critical violation) on the invoice page, each confirmation page and a refusal.
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig, setStatus } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium, severeViolations, toNextPage } from './browser-support.js';
import { PASSWORD, registerUser, type WebUser } from './web-support.js';
import { PAGE_ACTIONS } from '../../src/web/invoice-page/invoice-actions.js';

describeInChromium('invoice actions in Chromium', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-invoice-browser'));
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

  async function signedInAt(user: WebUser, path: string): Promise<void> {
    await page.goto(`${base}${path}`);
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(`${base}${path}`);
  }

  async function invoiceOf(user: WebUser, status?: string): Promise<string> {
    const customer = await createCustomer(t.app, user.company, { name: 'Kunde AG' });
    const invoice = await invoiceApi(t.app, user.company).createOk({
      customer_id: customer.id,
      invoice_number: 'RE-2026-007',
      total: '1190',
      invoice_date: '2026-11-10',
      due_date: '2026-11-24',
      shipping_mode: 'skip_shipping',
    });
    if (status) await setStatus(t.app, invoice.id, status);
    return `/invoices/${invoice.id}`;
  }

  /** Each test drives many pages on a shared, busy machine. */
  const LONG = 180_000;

  const heading = () => page.getByRole('heading', { level: 1 });
  const notice = () => page.locator('#notice');
  const amount = (key: string) => page.locator(`[data-amount="${key}"]`).textContent();

  it(
    'adds a payment with the form, shows a refusal beside the field, and deletes it after the confirmation (German)',
    async () => {
      const user = await registerUser(t.app);
      const path = await invoiceOf(user, 'due');
      await signedInAt(user, path);
      await expect(heading().textContent()).resolves.toBe('Rechnung RE-2026-007');
      await accessible();

      await page.getByLabel('Betrag (z. B. 119,50)').fill('zwölf');
      await toNextPage(page, () => page.getByRole('button', { name: 'Zahlung speichern' }).click());
      await expect(page.locator('#f-amount-error').textContent()).resolves.toBe('Bitte einen Betrag größer als 0 angeben, z. B. 119,50.');
      await expect(page.getByLabel('Betrag (z. B. 119,50)').inputValue()).resolves.toBe('zwölf');
      await accessible();

      await page.getByLabel('Betrag (z. B. 119,50)').fill('190,00');
      await page.getByLabel('Zahlungsdatum (leer: heute)').fill('2026-11-20');
      await page.getByLabel('Referenz (z. B. Kontoauszug)').fill('KA-1');
      await page.getByRole('button', { name: 'Zahlung speichern' }).click();
      await page.waitForURL(`${base}${path}`);
      await expect(notice().textContent()).resolves.toBe('Die Zahlung über 190,00\u00a0€ wurde erfasst.');
      await expect(amount('open')).resolves.toBe('1.000,00\u00a0€');
      await accessible();

      await toNextPage(page, () => page.getByRole('link', { name: 'Zahlung vom 20.11.2026 über 190,00\u00a0€ löschen' }).click());
      await expect(page.locator('#consequence').textContent()).resolves.toContain(
        'Der offene Betrag steigt dadurch um 190,00\u00a0€ auf 1.190,00\u00a0€.',
      );
      await accessible();
      // By keyboard: the confirmation's button takes the focus and Enter submits it.
      await page.getByRole('button', { name: 'Ja, Zahlung löschen' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base}${path}`);
      await expect(notice().textContent()).resolves.toBe('Die Zahlung über 190,00\u00a0€ wurde gelöscht.');
      await expect(amount('open')).resolves.toBe('1.190,00\u00a0€');
      await expect(page.locator('[data-payment]').count()).resolves.toBe(0);
      expect(consoleErrors.filter((text) => !text.includes('422'))).toEqual([]);
    },
    LONG,
  );

  it(
    'blocks dunning and writes the invoice off through their confirmations (German), a refusal on the page',
    async () => {
      const user = await registerUser(t.app);
      const path = await invoiceOf(user, 'due');
      await signedInAt(user, path);
      await toNextPage(page, () => page.getByRole('link', { name: 'Mahnungen sperren' }).click());
      await expect(heading().textContent()).resolves.toBe('Mahnungen sperren: Rechnung RE-2026-007');
      await accessible();
      await page.getByLabel('Grund der Sperre').fill('Kunde bestreitet die Lieferung');
      await page.getByLabel('Gesperrt bis (optional, einschließlich)').fill('2026-12-31');
      await page.getByRole('button', { name: 'Ja, Mahnungen sperren' }).click();
      await page.waitForURL(`${base}${path}`);
      await expect(notice().textContent()).resolves.toBe('Das Mahnwesen für diese Rechnung ist gesperrt.');
      await expect(page.locator('[data-block]').textContent()).resolves.toContain('31.12.2026: Kunde bestreitet die Lieferung');

      await toNextPage(page, () => page.getByRole('link', { name: 'Ausbuchen' }).click());
      await expect(page.locator('#consequence').textContent()).resolves.toContain('Der offene Betrag von 1.190,00\u00a0€ wird ausgebucht');
      await accessible();
      await page.getByLabel('Grund (optional)').fill('Insolvenz');
      await page.getByRole('button', { name: 'Ja, Ausbuchen' }).click();
      await page.waitForURL(`${base}${path}`);
      await expect(notice().textContent()).resolves.toBe('Die Rechnung wurde ausgebucht.');
      await expect(page.locator('.status').textContent()).resolves.toBe('Ausgebucht');
      await expect(page.locator('[data-event="status_changed"]').last().textContent()).resolves.toContain('Insolvenz');
      await accessible();

      // A page left open while the status changed: the service refuses, the page says why, nothing changed.
      await page.goto(`${base}${path}/confirm/hand_to_collection`);
      await accessible();
      await setStatus(t.app, path.slice('/invoices/'.length), 'ready_for_dept_collection');
      await page.goto(`${base}${path}/confirm/hand_to_collection`);
      await setStatus(t.app, path.slice('/invoices/'.length), 'written_off');
      await toNextPage(page, () => page.getByRole('button', { name: 'Ja, An Inkasso übergeben' }).click());
      await expect(page.getByRole('alert').first().textContent()).resolves.toContain('Die Aktion wurde abgelehnt; nichts wurde geändert.');
      await accessible();
    },
    LONG,
  );

  it(
    'speaks English after the switch, and every confirmation page passes axe',
    async () => {
      const user = await registerUser(t.app);
      const path = await invoiceOf(user, 'due');
      await signedInAt(user, path);
      await page.getByRole('button', { name: 'English' }).click();
      await page.waitForURL(`${base}${path}`);
      await expect(heading().textContent()).resolves.toBe('Invoice RE-2026-007');
      await expect(amount('open')).resolves.toBe('€1,190.00');
      await page.getByLabel('Amount (e.g. 119.50)').fill('90.00');
      await page.getByRole('button', { name: 'Save payment' }).click();
      await page.waitForURL(`${base}${path}`);
      await expect(notice().textContent()).resolves.toBe('The payment of €90.00 has been recorded.');
      await accessible();
      await toNextPage(page, () => page.getByRole('link', { name: 'Block dunning' }).click());
      await page.getByLabel('Reason for the block').fill('Disputed');
      await page.getByRole('button', { name: 'Yes, Block dunning' }).click();
      await page.waitForURL(`${base}${path}`);
      await expect(notice().textContent()).resolves.toBe('Dunning is blocked for this invoice.');
      for (const action of PAGE_ACTIONS) {
        await page.goto(`${base}${path}/confirm/${action}`);
        await expect(page.locator('#consequence').count()).resolves.toBe(1);
        await accessible();
      }
      await page.goto(`${base}${path}`);
      await toNextPage(page, () => page.getByRole('link', { name: /^Delete the payment/ }).click());
      await expect(page.locator('#consequence').textContent()).resolves.toContain('The open amount goes back up by €90.00 to €1,190.00.');
      await accessible();
    },
    LONG,
  );
});
