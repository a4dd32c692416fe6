// The exception pages in a real Chromium (as browser.e2e-spec.ts): a dead letter replayed from the page
// is processed (its payment booked on the invoice), an e-mail address fixed in place ships the invoice again, and axe-core finds no serious
// or critical violation on any of the pages.
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { api as restApi, createContact, createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { apiKeyAuth, pushAccepted, quickPush, waitForStatus } from '../support/push.js';
import { shippingTestConfig } from '../support/shipping.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium, severeViolations, toNextPage } from './browser-support.js';
import { PASSWORD, registerUser, type WebUser } from './web-support.js';

describeInChromium('exception pages in Chromium', () => {
  const t = useTestApp(() => ({
    ...invoiceSuiteConfig('web-exceptions-browser'),
    ...quickPush({ retryLimit: 0 }),
    ...shippingTestConfig(),
  }));
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

  async function signInAt(user: WebUser, path: string): Promise<void> {
    await page.goto(`${base}${path}`);
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await toNextPage(page, () => page.getByRole('button', { name: 'Anmelden' }).click());
    expect(new URL(page.url()).pathname).toBe(path);
  }

  const heading = () => page.getByRole('heading', { level: 1 });

  it('replays a dead letter from the page, and it is processed', async () => {
    const user = await registerUser(t.app);
    const auth = apiKeyAuth(user.company.apiKey);
    const id = await pushAccepted(t.app, auth, {
      document_type: 'payment',
      external_id: 'Z-9',
      amount: '50.00',
      invoice_external_id: 'RE-9',
      payment_date: '2026-11-20',
    });
    await waitForStatus(t.app, auth, id, ['dead_lettered']);
    const customer = await createCustomer(t.app, user.company);
    const invoices = invoiceApi(t.app, user.company);
    const invoice = await invoices.createOk({
      customer_id: customer.id as string,
      external_id: 'RE-9',
      total: '119',
      invoice_date: '2026-11-02',
      due_date: '2026-11-16',
      'options[autoskip_shipping]': 'true',
    });

    await signInAt(user, '/push/dead-letters');
    await expect(heading().textContent()).resolves.toBe('Dead Letters');
    await accessible();
    await page.getByLabel('Auswählen: Z-9').check();
    await toNextPage(page, () => page.getByRole('button', { name: 'Ausgewählte erneut einspielen' }).click());
    await expect(page.getByRole('status').first().textContent()).resolves.toBe('1 Dokument wurde erneut eingereiht.');
    expect(await waitForStatus(t.app, auth, id, ['processed'])).toMatchObject({ outcome: 'applied' });
    // Processed means booked: the payment is on the invoice, and the queue is empty.
    const paid = (await invoices.invoice(invoice.id as string)).body.invoice;
    expect(paid.open_amount).toBe('69.0');
    expect(paid.payments).toEqual([expect.objectContaining({ amount: '50.0', payment_date: '2026-11-20' })]);
    await page.reload();
    await page.getByText('Keine Dead Letters.').waitFor();
    await expect(page.getByLabel('Auswählen: Z-9').count()).resolves.toBe(0);

    await page.goto(`${base}/push/documents/${id}`);
    await expect(page.locator('[data-status]').textContent()).resolves.toBe('Verarbeitet');
    await expect(page.locator('[data-step="replayed"] td').last().textContent()).resolves.toBe('Benutzer');
    await accessible();

    await page.goto(`${base}/push/documents`);
    await expect(page.locator(`[data-document="${id}"]`).count()).resolves.toBe(1);
    // The filter form (htmx swaps the results and pushes the URL; without script it is a plain GET).
    await page.getByLabel('Status').selectOption('dead_lettered');
    await page.getByRole('button', { name: 'Filtern' }).click();
    await page.waitForURL(/status=dead_lettered/);
    await page.getByText('Keine Dokumente für diese Filter.').waitFor();
    await expect(page.locator(`[data-document="${id}"]`).count()).resolves.toBe(0);
    await page.getByLabel('Status').selectOption('processed');
    await page.getByRole('button', { name: 'Filtern' }).click();
    await page.waitForURL(/status=processed/);
    await page.locator(`[data-document="${id}"]`).waitFor();
    await accessible();
    await page.goto(`${base}/push/audit-log?step=replayed`);
    await expect(page.locator('[data-step="replayed"]').count()).resolves.toBe(1);
    await accessible();
    expect(consoleErrors).toEqual([]);
  }, 120_000);

  it('fixes an e-mail address in place and ships again; the blocked invoices page', async () => {
    const user = await registerUser(t.app);
    await restApi(t.app, user.company)
      .patchForm('/api/v1/shipping_settings', {
        sender_street: 'Hauptstraße 5',
        sender_zip: '10115',
        sender_city: 'Berlin',
        bank_iban: 'DE89 3704 0044 0532 0130 00',
        bank_name: 'Commerzbank',
      })
      .expect(200);
    const customer = await createCustomer(t.app, user.company, { name: 'Kunde ohne Mail AG', shipping_mode: 'email' });
    const contact = await createContact(t.app, user.company, customer.id as string, { name: 'Erika Muster' });
    const invoice = await invoiceApi(t.app, user.company).createOk({
      customer_id: customer.id as string,
      contact_id: contact.id as string,
      invoice_number: 'RE-1',
      total: '119',
      invoice_date: '2026-11-02',
      due_date: '2026-11-16',
      'options[autosend]': 'true',
    });
    await restApi(t.app, user.company).patchJson(`/api/v1/invoices/${invoice.id}`, { dunning_block_reason: 'Reklamation' }).expect(200);

    await signInAt(user, '/exceptions/shipments');
    await expect(heading().textContent()).resolves.toBe('Sendungen mit Handlungsbedarf');
    await accessible();
    await page.getByText('E-Mail-Adresse korrigieren und erneut versenden').click();
    await page.getByLabel('E-Mail-Adresse (Erika Muster)').fill('erika@kunde.de');
    await accessible();
    await toNextPage(page, () => page.getByRole('button', { name: 'Speichern und erneut versenden' }).click());
    await expect(page.getByRole('status').allTextContents()).resolves.toEqual([
      'Die Angaben von Erika Muster wurden gespeichert.',
      '1 Sendung wurde erneut auf den Weg gebracht.',
      'Keine Sendung braucht Ihre Aufmerksamkeit.',
    ]);

    // The shipping runs in the background: the blocked list shows open (sent) invoices only.
    const invoices = invoiceApi(t.app, user.company);
    for (let tries = 0; (await invoices.invoice(invoice.id as string)).body.invoice.invoice_status !== 'sent'; tries++) {
      if (tries > 150) throw new Error('the invoice was not shipped within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await toNextPage(page, () => page.getByRole('link', { name: 'Mahnsperren' }).click());
    await expect(page.locator(`[data-invoice="${invoice.id}"] td`).nth(4).textContent()).resolves.toBe('Reklamation');
    await accessible();
    expect(consoleErrors).toEqual([]);
  }, 120_000);
});
