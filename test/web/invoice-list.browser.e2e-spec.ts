// The invoice list in a real Chromium (Debian's package, driven by playwright-core): filter, search,
// sort and paginate with htmx swapping only the results and pushing the URL (and the same without
// JavaScript), the back button, the CSV download, and axe-core on the page (no serious or critical violation).
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createCustomer } from '../support/factories.js';
import { invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium, severeViolations } from './browser-support.js';
import { PASSWORD, registerUser, type WebUser } from './web-support.js';

describeInChromium('invoice list in Chromium', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-invoice-list-browser'));
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
  afterEach(async () => context?.close());

  async function open(options: { javaScriptEnabled?: boolean } = {}): Promise<void> {
    context = await browser.newContext({ locale: 'de-DE', acceptDownloads: true, ...options });
    page = await context.newPage();
    // A step that waits in vain fails with its own message, well within the test's time.
    page.setDefaultTimeout(10_000);
    consoleErrors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  }

  async function accessible(): Promise<void> {
    expect(await severeViolations(page)).toEqual([]);
  }

  /** A company with 55 open invoices of "Kunde Eins" (A-001 … A-055, one a day) and 3 paid ones of "Kunde Zwei". */
  async function seeded(): Promise<WebUser> {
    const user = await registerUser(t.app);
    const one = await createCustomer(t.app, user.company, { name: 'Kunde Eins' });
    const two = await createCustomer(t.app, user.company, { name: 'Kunde Zwei' });
    const insert = `INSERT INTO invoices (company_id, id, customer_id, invoice_number, status, original_total, paid_amount, open_amount, invoice_date, due_date)
      SELECT $1, gen_random_uuid(), $2, $3 || lpad(n::text, $4::int, '0'), $5, 100 + n, (1 - $6) * (100 + n), $6 * (100 + n), date '2025-01-01' + n, date '2025-01-15' + n
        FROM generate_series(1, $7::int) n`;
    await t.db.query(insert, [user.company.id.slice(4), (one.id as string).slice(4), 'A-', 3, 'sent', 1, 55]);
    await t.db.query(insert, [user.company.id.slice(4), (two.id as string).slice(4), 'B-', 1, 'paid', 0, 3]);
    return user;
  }

  async function signInAt(path: string, user: WebUser): Promise<void> {
    await page.goto(`${base}${path}`);
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(`${base}${path}`);
  }

  const firstNumbers = (n: number) =>
    page
      .locator('table.invoice-list tbody tr td:first-child a')
      .evaluateAll((links, count) => links.slice(0, count).map((a) => a.textContent), n);
  const rowCount = () => page.locator('table.invoice-list tbody tr').count();
  /** Set on the page's window: still there after a swap, gone after a full page load. */
  const markPage = () => page.evaluate('window.samePage = true');
  const samePage = () => page.evaluate('window.samePage === true');

  it('filters, searches, sorts and pages with htmx, pushes each URL, and the back button returns', async () => {
    const user = await seeded();
    await open();
    await signInAt('/invoices', user);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Rechnungen');
    await expect(page.locator('.summary').textContent()).resolves.toBe('58 Rechnungen · Seite 1 von 2 · Als CSV exportieren');
    await accessible();
    await markPage();

    await page.getByLabel('Status').selectOption('paid');
    await page.waitForURL(/status=paid/);
    await expect(page.locator('.summary').textContent()).resolves.toContain('3 Rechnungen');
    await expect(firstNumbers(3)).resolves.toEqual(['B-3', 'B-2', 'B-1']);
    await expect(page.locator('tbody .status').first().textContent()).resolves.toBe('Bezahlt');

    await page.getByLabel('Suche').fill('b-2');
    await page.getByLabel('Suche').press('Enter');
    await page.waitForURL(/q=b-2/);
    await expect(firstNumbers(5)).resolves.toEqual(['B-2']);
    await expect(samePage()).resolves.toBe(true);
    await accessible();

    await page.getByRole('link', { name: 'Filter zurücksetzen' }).click();
    await page.waitForURL(`${base}/invoices`);
    await markPage();
    await page.getByRole('link', { name: 'Rechnungsnummer' }).click();
    await page.waitForURL(/sort=number&dir=asc/);
    await expect(firstNumbers(2)).resolves.toEqual(['A-001', 'A-002']);
    await expect(page.locator('th[aria-sort="ascending"]').textContent()).resolves.toBe('Rechnungsnummer');
    await page.getByRole('link', { name: 'Rechnungsnummer' }).click();
    await page.waitForURL(/sort=number&dir=desc/);
    await expect(firstNumbers(2)).resolves.toEqual(['B-3', 'B-2']);
    // A filter changed after a sort keeps the order.
    await page.getByLabel('Status').selectOption('open');
    await page.waitForURL(/status=open/);
    expect(page.url()).toContain('sort=number&dir=desc');
    await expect(firstNumbers(2)).resolves.toEqual(['A-055', 'A-054']);

    await page.getByLabel('Status').selectOption('');
    await page.waitForURL((url) => !url.search.includes('status=open'));
    await page.getByRole('link', { name: 'Nächste Seite' }).click();
    await page.waitForURL(/page=2/);
    await expect(rowCount()).resolves.toBe(8);
    await expect(page.locator('.pages').textContent()).resolves.toContain('Seite 2 von 2');
    await expect(samePage()).resolves.toBe(true);
    await accessible();

    await page.goBack();
    await page.waitForURL((url) => !url.search.includes('page=2'));
    // htmx restores the page behind the URL with a request of its own: wait for its rows.
    await page.locator('table.invoice-list tbody tr').nth(49).waitFor();
    await expect(rowCount()).resolves.toBe(50);
    expect(consoleErrors).toEqual([]);
  }, 120_000);

  it('downloads the filtered list as a CSV file', async () => {
    const user = await seeded();
    await open();
    await signInAt('/invoices?status=paid&sort=number&dir=asc', user);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Als CSV exportieren' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^rechnungen-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await readFile(await download.path(), 'utf8');
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0].split(';').slice(0, 3)).toEqual(['Rechnungsnummer', 'Externe ID', 'Kunde']);
    expect(lines.slice(1, -1).map((l) => l.split(';').slice(0, 3).join(';'))).toEqual([
      'B-1;;Kunde Zwei',
      'B-2;;Kunde Zwei',
      'B-3;;Kunde Zwei',
    ]);
  });

  it('filters and pages without JavaScript, through the plain GET form and links', async () => {
    const user = await seeded();
    await open({ javaScriptEnabled: false });
    await signInAt('/invoices', user);
    await page.getByLabel('Suche').fill('Kunde Eins');
    await page.getByLabel('Nur überfällige').check();
    await page.getByRole('button', { name: 'Filtern' }).click();
    await page.waitForURL(/q=Kunde\+Eins/);
    expect(page.url()).toContain('overdue=1');
    await expect(page.locator('.summary').textContent()).resolves.toContain('55 Rechnungen');
    await page.getByRole('link', { name: 'Nächste Seite' }).click();
    await page.waitForURL(/page=2/);
    await expect(rowCount()).resolves.toBe(5);
  }, 60_000);
});
