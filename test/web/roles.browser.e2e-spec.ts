// Owners and members in a real Chromium: a member finds no "Einstellungen" entry, reads the team and the
// dunning policy without forms and meets the 403 page "Nur für Inhaber" on an owner's page; an owner
// changes a role and removes a user through the confirmation, whose browser is signed out at once.
// axe-core finds no serious or critical violation on the team pages and the 403 page.
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { withoutRateLimits } from '../support/factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { describeInChromium, launchChromium, severeViolations } from './browser-support.js';
import { addUser } from './roles-support.js';
import { PASSWORD, registerUser, type WebUser } from './web-support.js';

const TIMEOUT = { timeout: 20_000 };

describeInChromium('roles in Chromium', () => {
  const t = useTestApp(() => withoutRateLimits());
  let browser: Browser;
  let base: string;
  let contexts: BrowserContext[];
  let consoleErrors: string[];

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => browser?.close());
  beforeEach(() => {
    contexts = [];
    consoleErrors = [];
  });
  afterEach(async () => {
    expect(consoleErrors).toEqual([]);
    await Promise.all(contexts.map((context) => context.close()));
  });

  async function signedIn(user: WebUser): Promise<Page> {
    const context = await browser.newContext({ locale: 'de-DE' });
    contexts.push(context);
    const page = await context.newPage();
    page.on('console', (message) => {
      // A refusal answers 4xx on purpose, which Chromium reports as a failed load; anything else counts.
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) consoleErrors.push(message.text());
    });
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL(/\/dashboard$/, TIMEOUT);
    return page;
  }
  const idOf = async (user: WebUser): Promise<string> =>
    (await t.db.query(`SELECT id FROM users WHERE lower(email) = lower($1)`, [user.email]))[0].id;

  it('a member sees no settings entry and no team or policy forms; an owner page answers "Nur für Inhaber"', async () => {
    const owner = await registerUser(t.app);
    const member = await addUser(t.app, owner, 'member');
    const page = await signedIn(member);
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
    expect(await nav.getByRole('link', { name: 'Einstellungen' }).count()).toBe(0);
    await nav.getByRole('link', { name: 'Team', exact: true }).click();
    await page.waitForURL(/\/team$/, TIMEOUT);
    await page.getByText('Benutzer einladen, Rollen ändern und Benutzer entfernen können nur Inhaber.').waitFor(TIMEOUT);
    expect(await page.locator('form[action^="/team"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Rolle ändern' }).count()).toBe(0);
    expect(await severeViolations(page)).toEqual([]);

    await page.goto(`${base}/dunning/policy`);
    await page.getByText('Nur Inhaber können diese Angaben ändern.').waitFor(TIMEOUT);
    expect(await page.locator('form[action="/dunning/policy"]').count()).toBe(0);
    expect(await page.getByLabel('Karenztage', { exact: false }).first().isDisabled()).toBe(true);

    const refused = await page.goto(`${base}/team/users/${await idOf(owner)}/remove`);
    expect(refused?.status()).toBe(403);
    await page.getByRole('heading', { name: 'Nur für Inhaber' }).waitFor(TIMEOUT);
    expect(await severeViolations(page)).toEqual([]);

    // Every owners' page of integrations and settings: the same 403 page, typed in as an address.
    for (const path of [
      '/settings/company',
      '/settings/shipping',
      '/integrations/api-keys',
      '/integrations/oauth-apps',
      '/integrations/erp/new',
    ]) {
      const answer = await page.goto(`${base}${path}`);
      expect([path, answer?.status()]).toEqual([path, 403]);
      await page.getByRole('heading', { name: 'Nur für Inhaber' }).waitFor(TIMEOUT);
    }
    // Nor can a member post an owner's form with a valid CSRF token of their own session: refused, unchanged.
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const posted = await page.request.post(`${base}/settings/company`, {
      form: { _csrf: csrf, name: 'Übernommen GmbH', time_zone: 'Europe/Berlin', contact_email: 'x@example.com' },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(403);
    const [company] = await t.db.query(`SELECT name FROM companies WHERE id = $1`, [owner.company.id.slice(4)]);
    expect(company.name).toBe(owner.company.name);
  }, 120_000);

  it('an owner gives a member the owner role and removes another user, whose browser is signed out at once', async () => {
    const owner = await registerUser(t.app);
    const colleague = await addUser(t.app, owner, 'member');
    const leaving = await addUser(t.app, owner, 'member');
    const [page, leavingPage] = [await signedIn(owner), await signedIn(leaving)];
    await page.goto(`${base}/team`);
    expect(await severeViolations(page)).toEqual([]);

    await page.getByLabel(`Rolle von ${colleague.email}`, { exact: true }).selectOption('owner');
    await page.getByRole('button', { name: `Rolle von ${colleague.email} ändern` }).click();
    await page.getByText(`${colleague.email} hat jetzt die Rolle „Inhaber“.`).waitFor(TIMEOUT);
    expect(await page.getByLabel(`Rolle von ${colleague.email}`, { exact: true }).inputValue()).toBe('owner');

    await page.getByRole('link', { name: `${leaving.email} entfernen` }).click();
    await page.getByText('Alle Sitzungen dieses Benutzers enden sofort').waitFor(TIMEOUT);
    expect(await severeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Benutzer entfernen' }).click();
    await page.getByText(`${leaving.email} wurde entfernt.`).waitFor(TIMEOUT);
    expect(await page.locator(`tr[data-user="${leaving.email}"]`).count()).toBe(0);

    await leavingPage.goto(`${base}/invoices`);
    await leavingPage.waitForURL(/\/sign-in\?/, TIMEOUT);
  }, 120_000);
});
