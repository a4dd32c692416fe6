// The settings pages in a real Chromium: the shipping form filled in and saved (and a refused IBAN shown
// beside its field), a PNG logo uploaded and seen in the preview, the company's new name in the header;
// axe-core finds no serious or critical violation on either page.
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import request from 'supertest';
import { withoutRateLimits } from '../support/factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium, severeViolations } from './browser-support.js';
import { makePng } from './settings-support.js';
import { PASSWORD, registerUser, type WebUser } from './web-support.js';

const WAIT = { timeout: 20_000 };

describeInChromium('settings pages in Chromium', () => {
  const t = useTestApp(() => withoutRateLimits());
  let browser: Browser;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let user: WebUser;
  let consoleErrors: string[];

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => browser?.close());

  beforeEach(async () => {
    user = await registerUser(t.app, 'Logo GmbH');
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
    await page.waitForURL(/\/dashboard$/, WAIT);
  }, 60_000);
  afterEach(async () => {
    expect(consoleErrors).toEqual([]);
    await context?.close();
  });

  const accessible = async () => expect(await severeViolations(page)).toEqual([]);
  const settings = async () =>
    (await request(t.app.getHttpServer()).get('/api/v1/shipping_settings').set('Authorization', user.company.auth).expect(200)).body as {
      shipping_settings: Record<string, unknown>;
    };

  it('fills and saves the shipping form, shows a refused IBAN beside its field, and previews an uploaded PNG logo', async () => {
    await page.goto(`${base}/settings/shipping`);
    await accessible();
    await page.getByLabel('Versandart').selectOption('post');
    await page.getByLabel('Straße und Hausnummer').fill('Hauptstraße 5');
    await page.getByLabel('Postleitzahl').fill('10115');
    await page.getByLabel('Ort', { exact: true }).fill('Berlin');
    await page.getByLabel('IBAN').fill('DE00 0000');
    await page.getByLabel('Rechtsform').selectOption('gmbh');
    await page.getByLabel('Geschäftsführung').fill('Erika Mustermann\nMax Mustermann');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.locator('#bank_iban-error').waitFor(WAIT);
    expect(await page.locator('#bank_iban-error').textContent()).toContain('IBAN');
    expect(await page.getByLabel('Straße und Hausnummer').inputValue()).toBe('Hauptstraße 5');
    await accessible();
    await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.waitForURL(/done=saved/, WAIT);
    expect(await page.getByRole('status').first().textContent()).toContain('Die Einstellungen sind gespeichert.');
    expect((await settings()).shipping_settings).toMatchObject({
      shipping_mode: 'post',
      sender_city: 'Berlin',
      bank_iban: 'DE89370400440532013000',
      managing_directors: ['Erika Mustermann', 'Max Mustermann'],
    });

    const file = join(tmpdir(), `logo-${process.pid}.png`);
    await writeFile(file, makePng(240, 80));
    await page.getByLabel('Bilddatei').setInputFiles(file);
    await page.getByRole('button', { name: 'Logo hochladen' }).click();
    await page.waitForURL(/done=uploaded/, WAIT);
    const preview = page.getByRole('img', { name: 'Ihr aktuelles Logo' });
    await preview.waitFor(WAIT);
    // The image loaded through the session-checked route, at its own size.
    await page.waitForFunction("document.querySelector('img.logo-preview')?.naturalWidth === 240", null, WAIT);
    await accessible();
    await page.getByRole('button', { name: 'Logo entfernen' }).click();
    await page.waitForURL(/done=removed/, WAIT);
    expect(await page.getByRole('img', { name: 'Ihr aktuelles Logo' }).count()).toBe(0);
  }, 180_000);

  it('saves the company settings and shows the new name in the header', async () => {
    await page.goto(`${base}/settings/company`);
    await accessible();
    await page.getByLabel('Name des Unternehmens').fill('Umbenannt GmbH');
    await page.getByLabel('Zeitzone').selectOption('Europe/Vienna');
    await page.getByLabel('Kontakt-E-Mail').fill('kontakt@umbenannt.de');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.waitForURL(/done=saved/, WAIT);
    expect(await page.locator('header.top').textContent()).toContain('Umbenannt GmbH');
    await accessible();
  }, 120_000);
});
