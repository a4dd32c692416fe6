// The README's screenshots, taken in a real Chromium from companies seeded through the API as an accountant
// would find them: the dashboard, invoice list and an invoice page of a year of business with a dunning run
// of today; the dunning workbench in approval mode; the dead-letter queue. The suite writes them every run
// (to a temp folder, so a broken page shows in the image); `SCREENSHOTS=write npm test -- test/web/screenshots`
// writes them to docs/web/ for the README.
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { quickPush } from '../support/push.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium, toNextPage } from './browser-support.js';
import { daysAgo, seedDeadLetters, seedWorkbench } from './screenshots-seed.js';
import { PASSWORD, registerUser, type WebUser } from './web-support.js';

const OUT = process.env.SCREENSHOTS === 'write' ? join(process.cwd(), 'docs', 'web') : join(tmpdir(), 'receivables-screenshots');
const SHOTS = ['dashboard', 'invoice-list', 'invoice-page', 'dunning-workbench', 'dead-letters'] as const;

const CUSTOMERS = [
  'Bäckerei Schmidt GmbH',
  'Müller & Söhne KG',
  'Hotel Seeblick GmbH',
  'Praxis Dr. Weber',
  'Autohaus Becker e.K.',
  'Stadtwerke Nordheim AG',
];

describeInChromium('README screenshots', () => {
  // A pushed document that fails once is a dead letter at once (no retries to wait for).
  const t = useTestApp(() => ({ ...invoiceSuiteConfig('web-screenshots'), ...quickPush({ retryLimit: 0 }) }));
  let browser: Browser;
  let context: BrowserContext | undefined;
  let base: string;

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    await mkdir(OUT, { recursive: true });
  }, 60_000);
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  afterAll(async () => browser?.close());

  async function signedIn(user: WebUser): Promise<Page> {
    context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/dashboard`);
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await toNextPage(page, () => page.locator('form.sign-in button[type=submit]').click());
    return page;
  }

  async function shoot(page: Page, shot: (typeof SHOTS)[number], path: string): Promise<void> {
    await page.goto(`${base}${path}`);
    await page.waitForLoadState('networkidle');
    const file = join(OUT, `${shot}.png`);
    await page.screenshot({ path: file, fullPage: true });
    const png = await readFile(file);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(20_000);
  }

  it('shows the dashboard, the invoice list and an invoice page of a company with a year of business', async () => {
    const user = await registerUser(t.app, 'Muster Handel GmbH');
    const invoices = invoiceApi(t.app, user.company);
    const customers = [];
    for (const name of CUSTOMERS) customers.push(await createCustomer(t.app, user.company, { name }));
    let shown = '';
    for (let i = 0; i < 30; i++) {
      const issued = 12 + i * 12;
      const total = (180 + ((i * 379) % 4200) + 0.5 * (i % 3)).toFixed(2);
      const invoice = await invoices.createOk({
        customer_id: customers[i % customers.length].id as string,
        invoice_number: `RE-2026-${String(100 + i).padStart(4, '0')}`,
        total,
        invoice_date: daysAgo(issued),
        due_date: daysAgo(issued - 14),
        'options[autoskip_shipping]': 'true',
      });
      // Two of three older invoices were paid, one of them in part.
      if (issued > 45 && i % 3 !== 0) {
        const amount = i % 3 === 1 ? total : (Number(total) / 2).toFixed(2);
        await invoices.payForm(invoice.id as string, { amount, payment_date: daysAgo(issued - 20) }).expect(201);
      }
      if (i === 5) shown = new URL(invoice.service_url as string).pathname;
    }
    // Today's dunning run moves what is overdue into the reminder stages.
    await request(t.app.getHttpServer())
      .post('/api/v1/dunning_runs')
      .set('Authorization', user.company.auth)
      .send({ date: daysAgo(0) })
      .expect(201);

    const page = await signedIn(user);
    await shoot(page, 'dashboard', '/dashboard');
    await shoot(page, 'invoice-list', '/invoices');
    await shoot(page, 'invoice-page', shown);
  }, 120_000);

  it('shows the dunning workbench in approval mode with reminders to several customers waiting', async () => {
    const user = await registerUser(t.app, 'Nordwind Haustechnik GmbH');
    await seedWorkbench(t.app, user.company);
    const page = await signedIn(user);
    await shoot(page, 'dunning-workbench', '/dunning');
    expect(await page.locator('[data-table="waiting"] [data-invoice]').count()).toBe(10);
    expect(await page.locator('[data-table="proposal"] [data-invoice]').count()).toBe(2);
  }, 120_000);

  it('shows the dead-letter queue with payments for invoices the service does not know', async () => {
    const user = await registerUser(t.app, 'Nordwind Haustechnik GmbH');
    await seedDeadLetters(t.app, user.company);
    const page = await signedIn(user);
    await shoot(page, 'dead-letters', '/push/dead-letters');
    expect(await page.getByRole('checkbox').count()).toBeGreaterThanOrEqual(4);
  }, 120_000);

  it('has the README screenshots committed under docs/web/', () => {
    for (const shot of SHOTS) expect(existsSync(join(process.cwd(), 'docs', 'web', `${shot}.png`))).toBe(true);
  });
});
