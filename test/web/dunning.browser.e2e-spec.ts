// The dunning pages in a real Chromium: approving a proposal sends exactly the approved reminders (the
// e-mail arrives at the test SMTP server, the letter in the print batch), rejecting leaves the invoices
// where they were, the policy form shows the API's error beside the field, and axe-core finds no serious
// or critical violation on any dunning page.
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { parsePublicId } from '../../src/common/ids.js';
import { PostalProvider } from '../../src/shipping/postal/postal-provider.js';
import type { PrintBatchProvider } from '../../src/shipping/postal/print-batch.provider.js';
import { DunningHarness, LEGAL_DETAILS } from '../support/dunning.js';
import { withoutRateLimits } from '../support/factories.js';
import { shippingTestConfig } from '../support/shipping.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { makePdf } from '../support/pdf.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium, severeViolations, toNextPage } from './browser-support.js';
import { PASSWORD, registerUser, type WebUser } from './web-support.js';

/** The daily run's time in the tests' policies: the scheduler (real clock) does not run today meanwhile. */
const LATE = '23:59';

describeInChromium('dunning pages in Chromium', () => {
  let smtp: TestSmtp;
  let config: ReturnType<typeof shippingTestConfig>;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    config = shippingTestConfig(smtp.url);
  });
  const t = useTestApp(() => ({ ...withoutRateLimits(), ...config }));
  let browser: Browser;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let d: DunningHarness;
  let user: WebUser;

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await smtp?.close();
  });
  let consoleErrors: string[];
  beforeEach(async () => {
    await smtp.reset();
    user = await registerUser(t.app, 'Mahn GmbH');
    d = new DunningHarness(t.app);
    d.company = user.company;
    // The harness's invoice PDF, made by its reset() otherwise (the company here is the web user's).
    Object.assign(d, { pdf: await makePdf('Rechnung') });
    await d.api().patch('/api/v1/shipping_settings').send(LEGAL_DETAILS).expect(200);
    d.customerId = await d.newCustomer();
    context = await browser.newContext({ locale: 'de-DE' });
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

  const printBatch = async () => {
    await t.app.get<PostalProvider, PrintBatchProvider>(PostalProvider).flush();
    const root = join(config.shipping.printBatchDir, parsePublicId('cmp', user.company.id) as string);
    const [day] = await readdir(root);
    return readFile(join(root, day, 'manifest.csv'), 'utf8');
  };

  it('approving sends exactly the approved reminders (mail and print batch); rejecting leaves the invoices where they were', async () => {
    await d.policy({ auto_ship: false, run_at: LATE, levels: [{ fee: '5.00' }, {}, {}] });
    const a = await d.sentInvoice('2026-01-08', '100.00', { invoice_number: 'RE-A' });
    const b = await d.sentInvoice('2026-01-09', '100.00', { invoice_number: 'RE-B' });
    const c = await d.sentInvoice('2026-01-10', '200.00', { invoice_number: 'RE-C' });
    const e = await d.sentInvoice('2026-01-10', '300.00', { invoice_number: 'RE-E' });
    await d.api().patch(`/api/v1/invoices/${c}`).send({ shipping_mode: 'post' }).expect(200);
    await d.run('2026-01-17');

    await page.goto(`${base}/dunning?date=2026-01-18`);
    await expect(page.getByRole('heading', { name: 'Zur Freigabe vorgelegt' }).isVisible()).resolves.toBe(true);
    expect(await page.locator('[data-about-to-send]').textContent()).toMatch(/4 Mahnungen mit 20,00/);
    await accessible();

    // The preview of one of them: its e-mail text and its letter, nothing created.
    await page.getByRole('link', { name: 'Vorschau der Mahnung zu RE-A' }).click();
    await page.waitForURL(/\/dunning\/preview\//);
    expect(await page.locator('[data-mail="subject"]').textContent()).toContain('RE-A');
    await accessible();
    const pdf = await page.request.get(`${base}/dunning/preview/${a}/letter.pdf?date=2026-01-18`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await d.invoice(a)).reminders).toEqual([]);
    await page.getByRole('link', { name: 'Zurück zum Vorschlag' }).click();

    await page.getByLabel('Mahnung zu RE-A auswählen').check();
    await page.getByLabel('Mahnung zu RE-C auswählen').check();
    await page.getByRole('button', { name: 'Ausgewählte freigeben' }).click();
    await page.waitForURL(/approved=2/);
    expect(await page.getByRole('status').first().textContent()).toContain('2 Mahnungen freigegeben');

    await d.waitForStatus(a, 'reminder1_sent');
    await d.waitForStatus(c, 'reminder1_sent');
    // Exactly the approved: RE-A's reminder by e-mail, RE-C's letter in the print batch; RE-B and RE-E nowhere.
    expect(smtp.received.map((m) => m.parsed.subject)).toEqual([expect.stringContaining('RE-A')]);
    expect(smtp.received[0].to).toEqual(['erika@kunde.de']);
    const manifest = (await printBatch()).trim().split('\r\n');
    expect(manifest).toHaveLength(2);
    expect(manifest[1]).toContain('RE-C');
    for (const approved of [a, c]) expect((await d.invoice(approved)).reminders).toEqual([expect.objectContaining({ reminder_stage: 1 })]);
    for (const waiting of [b, e]) {
      expect(await d.statusOf(waiting)).toBe('ready_for_reminder1');
      expect((await d.invoice(waiting)).reminders).toEqual([]);
    }

    await page.getByLabel('Mahnung zu RE-B auswählen').check();
    await page.getByLabel('Grund der Ablehnung (optional)').fill('Ratenzahlung vereinbart');
    await page.getByRole('button', { name: 'Ausgewählte ablehnen' }).click();
    await page.waitForURL(/rejected=1/);
    expect(await d.statusOf(b)).toBe('due');
    expect((await d.invoice(b)).reminders).toEqual([]);
    expect((await d.invoice(b)).open_amount).toBe('100.0');
    expect(await d.statusOf(e)).toBe('ready_for_reminder1');
    expect(await page.locator('[data-table="waiting"] [data-invoice]').count()).toBe(1);
    // Nothing else went out meanwhile.
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.received).toHaveLength(1);
    expect((await printBatch()).trim().split('\r\n')).toHaveLength(2);
    await accessible();
  }, 180_000);

  it('the policy form shows the API’s error beside the field and keeps the policy', async () => {
    await page.goto(`${base}/dunning/policy`);
    await accessible();
    await page.getByLabel('Karenztage').fill('500');
    await toNextPage(page, () => page.getByRole('button', { name: 'Speichern' }).click());
    const error = page.locator('#grace_days-error');
    expect(await error.textContent()).toContain('Bitte geben Sie höchstens 90 an.');
    expect(await page.getByLabel('Karenztage').getAttribute('aria-describedby')).toContain('grace_days-error');
    await accessible();
    expect((await d.api().get('/api/v1/dunning_policy').expect(200)).body.dunning_policy.grace_days).not.toBe(500);
    await page.getByLabel('Karenztage').fill('3');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.waitForURL(/saved=1/);
    expect((await d.api().get('/api/v1/dunning_policy').expect(200)).body.dunning_policy.grace_days).toBe(3);
  }, 120_000);

  it('runs now from the runs page (trigger web); runs, a run and the base rates pass axe', async () => {
    await d.sentInvoice('2026-01-08', '100.00', { invoice_number: 'RE-R' });
    await page.goto(`${base}/dunning/runs`);
    await accessible();
    // From the workbench, for its business date: the scheduler (real clock) may have run today already.
    await page.goto(`${base}/dunning?date=2026-01-17`);
    await page.getByRole('button', { name: 'Mahnlauf jetzt starten' }).click();
    await page.waitForURL(/\/dunning\/runs\/run-/);
    expect(page.url()).toMatch(/\?started=1$/);
    expect(await page.locator('dd[data-trigger]').getAttribute('data-trigger')).toBe('web');
    expect(await page.getByRole('link', { name: 'RE-R' }).count()).toBe(1);
    await accessible();
    await page.goto(`${base}/dunning/base-rates`);
    await accessible();
    await page.goto(`${base}/dunning`);
    await accessible();
  }, 120_000);
});
