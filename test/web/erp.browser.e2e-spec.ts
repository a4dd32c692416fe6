// The ERP pages in a real Chromium: a connection created through the form against the suite's local
// SAP OData stand-in passes "Verbindung testen", and "Jetzt abrufen" shows the run's figures updating
// without a reload (htmx polling) until it ends with the counts the API reports. axe-core on every page.
// With SCREENSHOTS=write the running pull is written to docs/web/erp-pull.png for the README.
import type { AddressInfo } from 'node:net';
import { mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ErpPullService } from '../../src/erp-pull/run/erp-pull.service.js';
import { erpApi, erpTestConfig, sapItem, sapPartner, TECH_PASSWORD, TECH_USER, uuidOf } from '../support/erp.js';
import { type ErpPki, makeErpPki } from '../support/pki.js';
import { SapODataServer } from '../support/sap-odata-server.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium, severeViolations } from './browser-support.js';
import { PASSWORD, registerUser, type WebUser } from './web-support.js';

const SHOTS = process.env.SCREENSHOTS === 'write' ? join(process.cwd(), 'docs', 'web') : join(tmpdir(), 'receivables-screenshots');
/** Each OData request of the stand-in waits this long: the run lasts long enough to be watched. */
const SLOW_MS = 1200;

describeInChromium('ERP pages in Chromium', () => {
  const t = useTestApp(() => erpTestConfig());
  let pki: ErpPki;
  let sap: SapODataServer;
  let browser: Browser;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let user: WebUser;
  let consoleErrors: string[];

  beforeAll(async () => {
    pki = makeErpPki();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    pki?.remove();
  });
  beforeEach(async () => {
    sap = new SapODataServer({ pki, version: 'v2', auth: 'basic', username: TECH_USER, password: TECH_PASSWORD });
    sap.partners = ['17100001', '17100002', '17100003'].map((customer) => sapPartner(customer));
    sap.items = Array.from({ length: 24 }, (_, i) => sapItem(i + 1, { Customer: ['17100001', '17100002', '17100003'][i % 3] }));
    await sap.start();
    user = await registerUser(t.app, 'Muster Handel GmbH');
    context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    consoleErrors = [];
    page.on('console', (message) => {
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
    await sap?.stop();
  });

  async function accessible(): Promise<void> {
    expect(await severeViolations(page)).toEqual([]);
  }

  /** The figure `key` of the run's progress as a number (de: 1.234). */
  const figure = async (key: string) => Number(((await page.locator(`[data-count=${key}] dd`).textContent()) ?? '').replace(/\./g, ''));

  it('creates a connection through the form, passes the connection test, and shows a pull running to the API’s counts', async () => {
    await page.goto(`${base}/integrations/erp`);
    await accessible();
    await page.getByRole('link', { name: 'Neue Verbindung anlegen' }).click();
    await page.getByRole('link', { name: 'Benutzer und Passwort' }).click();
    await page.waitForURL(/auth=basic/);
    await accessible();
    await page.getByLabel('Name', { exact: true }).fill('S/4HANA Produktion');
    await page.getByLabel('Adresse des SAP-Systems').fill(sap.origin);
    await page.getByLabel('Benutzername').fill(TECH_USER);
    await page.getByLabel('Passwort', { exact: true }).fill(TECH_PASSWORD);
    await page.getByLabel('Vertrauenswürdige Zertifizierungsstellen (PEM)').fill(pki.ca);
    await page.getByLabel('Zeitplan (Cron)').fill('0 6 * * 1-5');
    await page.getByText('Erweiterte Einstellungen').click();
    await page.getByLabel('Datensätze je Seite').fill('4');
    await page.getByRole('button', { name: 'Verbindung anlegen' }).click();
    await page.waitForURL(/\/integrations\/erp\/erp-[0-9a-f-]{36}$/);
    await page.getByText('Die Verbindung wurde angelegt.').waitFor();
    await accessible();
    const connectionId = /\/(erp-[0-9a-f-]{36})$/.exec(page.url())![1];
    expect(await page.content()).not.toContain(TECH_PASSWORD);

    await page.getByRole('button', { name: 'Verbindung testen' }).click();
    await page.waitForSelector('[data-probe]');
    await accessible();
    expect(await page.locator('[data-probe]').getAttribute('data-probe')).toBe('ok');
    const checks = await page
      .locator('tr[data-check]')
      .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-check'), r.getAttribute('data-ok')]));
    expect(checks).toEqual([
      ['dns', 'true'],
      ['address', 'true'],
      ['customers', 'true'],
      ['receivables', 'true'],
    ]);

    await page.getByRole('link', { name: 'Zurück zur Verbindung' }).click();
    sap.beforeHandle = (target) => (target.startsWith('/sap/opu/') ? new Promise((resolve) => setTimeout(resolve, SLOW_MS)) : undefined);
    await page.getByRole('button', { name: 'Jetzt abrufen (Änderungen)' }).click();
    await page.waitForURL(/\/pulls\/pul-[0-9a-f-]{36}$/);
    const runId = /\/(pul-[0-9a-f-]{36})$/.exec(page.url())![1];
    // The suites run without a background worker: the test is the worker, and the page watches it.
    await page.evaluate(() => Object.assign(globalThis, { sameDocument: true }));
    const job = t.app.get(ErpPullService).handleJob({ companyId: uuidOf(user.company.id), runId: uuidOf(runId) });

    const progress = page.locator('#run-progress');
    await page.locator('#run-progress[data-status=running]').waitFor({ timeout: 30_000 });
    const seen = new Set<number>();
    while ((await progress.getAttribute('data-status')) === 'running') {
      seen.add(await figure('pages'));
      if (seen.size === 2) {
        await accessible();
        await mkdir(SHOTS, { recursive: true });
        await page.screenshot({ path: join(SHOTS, 'erp-pull.png'), fullPage: true });
      }
      await page.waitForTimeout(300);
    }
    await job;
    await page.locator('#run-progress[data-status=succeeded]').waitFor({ timeout: 30_000 });
    // The figures changed while the run went on, in the same document (no reload).
    expect(seen.size).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => (globalThis as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await progress.getAttribute('hx-trigger')).toBeNull();
    await accessible();

    const api = (await erpApi(t.app, user.company).get(`/api/v1/erp_connections/${connectionId}/pulls/${runId}`).expect(200)).body.pull_run;
    expect(api.status).toBe('succeeded');
    expect(api.created).toBeGreaterThan(0);
    for (const key of ['pages', 'requests', 'created', 'updated', 'unchanged', 'failed', 'skipped'] as const) {
      expect([key, await figure(key)]).toEqual([key, api[key]]);
    }
    const png = await readFile(join(SHOTS, 'erp-pull.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  }, 180_000);

  it('takes the X.509 certificate and key as uploaded PEM files; a file that is not PEM is refused beside its field', async () => {
    await page.goto(`${base}/integrations/erp/new?auth=x509`);
    await accessible();
    await page.getByLabel('Name', { exact: true }).fill('S/4HANA Zertifikat');
    await page.getByLabel('Adresse des SAP-Systems').fill(sap.origin);
    await page.getByLabel('Vertrauenswürdige Zertifizierungsstellen (PEM)').fill(pki.ca);
    const file = (name: string, text: string) => ({ name, mimeType: 'application/x-pem-file', buffer: Buffer.from(text) });
    await page.getByLabel('Zertifikat als Datei').setInputFiles(file('client.pem', 'kein Zertifikat'));
    await page.getByLabel('Schlüssel als Datei').setInputFiles(file('client.key', pki.clientKey));
    await page.getByRole('button', { name: 'Verbindung anlegen' }).click();
    await page.locator('#f-client_certificate-error').waitFor();
    expect(await page.locator('#f-client_certificate-error').textContent()).toContain('Bitte laden Sie eine PEM-Datei hoch');
    await accessible();

    await page.getByLabel('Zertifikat als Datei').setInputFiles(file('client.pem', pki.clientCert));
    await page.getByLabel('Schlüssel als Datei').setInputFiles(file('client.key', pki.clientKey));
    await page.getByRole('button', { name: 'Verbindung anlegen' }).click();
    await page.waitForURL(/\/integrations\/erp\/erp-[0-9a-f-]{36}$/);
    await page.getByText('Die Verbindung wurde angelegt.').waitFor();
    const [created] = (await erpApi(t.app, user.company).get('/api/v1/erp_connections').expect(200)).body.erp_connections as Array<
      Record<string, unknown>
    >;
    expect(created).toMatchObject({
      name: 'S/4HANA Zertifikat',
      auth_method: 'x509',
      secrets: expect.objectContaining({ private_key: true }),
    });
    expect(await page.content()).not.toContain('PRIVATE KEY');
  }, 120_000);
});
