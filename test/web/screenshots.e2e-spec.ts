// The three screenshots of the README (dashboard, invoice list, an invoice page), taken in a real Chromium
// from a company seeded through the API as an accountant would find it: customers, a year of invoices and
// payments, a dunning run of today. The suite writes them every run (to a temp folder, so a broken page shows
// in the image); `SCREENSHOTS=write npm test -- test/web/screenshots` writes them to docs/web/ for the README.
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium } from './browser-support.js';
import { PASSWORD, registerUser } from './web-support.js';

const OUT = process.env.SCREENSHOTS === 'write' ? join(process.cwd(), 'docs', 'web') : join(tmpdir(), 'receivables-screenshots');
const SHOTS = ['dashboard', 'invoice-list', 'invoice-page'] as const;

const CUSTOMERS = [
  'Bäckerei Schmidt GmbH',
  'Müller & Söhne KG',
  'Hotel Seeblick GmbH',
  'Praxis Dr. Weber',
  'Autohaus Becker e.K.',
  'Stadtwerke Nordheim AG',
];

/** A calendar date `days` before today (UTC), YYYY-MM-DD. */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

describeInChromium('README screenshots', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-screenshots'));
  let browser: Browser;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    await mkdir(OUT, { recursive: true });
  }, 60_000);
  afterAll(async () => browser?.close());

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

    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await page.goto(`${base}/dashboard`);
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.locator('form.sign-in button[type=submit]').click();
    await page.waitForLoadState();

    const paths: Record<(typeof SHOTS)[number], string> = { dashboard: '/dashboard', 'invoice-list': '/invoices', 'invoice-page': shown };
    for (const shot of SHOTS) {
      await page.goto(`${base}${paths[shot]}`);
      await page.waitForLoadState('networkidle');
      const file = join(OUT, `${shot}.png`);
      await page.screenshot({ path: file, fullPage: true });
      const png = await readFile(file);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.length).toBeGreaterThan(20_000);
    }
    await context.close();
  }, 120_000);

  it('has the README screenshots committed under docs/web/', () => {
    for (const shot of SHOTS) expect(existsSync(join(process.cwd(), 'docs', 'web', `${shot}.png`))).toBe(true);
  });
});
