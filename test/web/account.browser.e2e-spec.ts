// The account pages in a real Chromium (Debian's package, driven by playwright-core): a forgotten
// password reset from the sign-in page, and a colleague invited from the team page who sets a password;
// axe-core on every page and state (no serious or critical violation), the forms used by keyboard.
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { useTestApp } from '../support/use-test-app.js';
import { accountTestConfig, linkIn, mailTo } from './account-support.js';
import { describeInChromium, launchChromium, severeViolations, toNextPage } from './browser-support.js';
import { PASSWORD, registerUser } from './web-support.js';

const NEW_PASSWORD = 'Neues!Passwort2';

describeInChromium('account pages in Chromium', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  const t = useTestApp(() => accountTestConfig(smtp));
  let browser: Browser;
  let base: string;
  const contexts: BrowserContext[] = [];
  let consoleErrors: string[];

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await smtp?.close();
  });
  beforeEach(() => (consoleErrors = []));
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    await smtp.reset();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ locale: 'de-DE' });
    contexts.push(context);
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    return page;
  }

  /** axe-core on the page as it stands: no serious or critical violation. */
  async function accessible(page: Page): Promise<void> {
    expect(await severeViolations(page)).toEqual([]);
  }

  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
  const path = (page: Page) => new URL(page.url()).pathname;
  /** Tabs from the top of the page until the element with this id has the focus: it is reachable by keyboard. */
  async function tabTo(page: Page, id: string): Promise<void> {
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(`document.activeElement && document.activeElement.id === ${JSON.stringify(id)}`)) return;
    }
    throw new Error(`#${id} is not reachable by keyboard`);
  }

  it('resets a forgotten password from the sign-in page, by keyboard, and the spent link says so', async () => {
    const user = await registerUser(t.app);
    const page = await newPage();
    await page.goto(`${base}/sign-in`);
    await toNextPage(page, () => page.getByRole('link', { name: 'Passwort vergessen?' }).click());
    expect(path(page)).toBe('/password-reset');
    await expect(heading(page)).resolves.toBe('Passwort zurücksetzen');
    await accessible(page);
    await tabTo(page, 'email');
    await page.keyboard.type('kein-at-zeichen');
    await toNextPage(page, () => page.keyboard.press('Enter'));
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Bitte geben Sie eine gültige E-Mail-Adresse ein.');
    await accessible(page);
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await toNextPage(page, () => page.getByRole('button', { name: 'Link anfordern' }).click());
    expect(path(page)).toBe('/password-reset/sent');
    await accessible(page);

    const link = linkIn(await mailTo(smtp, user.email), 'password-reset');
    await page.goto(`${base}${link}`);
    await expect(heading(page)).resolves.toBe('Neues Passwort festlegen');
    await expect(page.getByLabel('E-Mail-Adresse').inputValue()).resolves.toBe(user.email);
    await accessible(page);
    await page.getByLabel('Neues Passwort', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Neues Passwort wiederholen').fill('Anderes!Passwort3');
    await toNextPage(page, () => page.getByRole('button', { name: 'Passwort speichern' }).click());
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Die beiden Passwörter stimmen nicht überein.');
    await accessible(page);
    await page.getByLabel('Neues Passwort', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Neues Passwort wiederholen').fill(NEW_PASSWORD);
    await toNextPage(page, () => page.getByRole('button', { name: 'Passwort speichern' }).click());
    await expect(heading(page)).resolves.toBe('Passwort geändert');
    await accessible(page);
    await toNextPage(page, () => page.getByRole('link', { name: 'Zur Übersicht' }).click());
    expect(path(page)).toBe('/dashboard');

    const later = await newPage();
    await later.goto(`${base}${link}`);
    await expect(heading(later)).resolves.toBe('Link ungültig');
    await accessible(later);
    // The refusals' 4xx answers are the only errors the browser reports; nothing broke the CSP.
    expect(consoleErrors.filter((text) => !/\b(410|422)\b/.test(text))).toEqual([]);
  }, 120_000);

  it('invites a colleague from the team page, who sets a password and works in the same company', async () => {
    const user = await registerUser(t.app);
    const page = await newPage();
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await toNextPage(page, () => page.getByRole('button', { name: 'Anmelden' }).click());
    await toNextPage(page, () => page.getByRole('link', { name: 'Team' }).click());
    await expect(heading(page)).resolves.toBe('Team');
    await accessible(page);
    await tabTo(page, 'invite-email');
    await page.keyboard.type('kein-at');
    await toNextPage(page, () => page.keyboard.press('Enter'));
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Bitte geben Sie eine gültige E-Mail-Adresse ein.');
    await accessible(page);
    for (const email of ['kollegin@example.com', 'weg@example.com']) {
      await page.getByLabel('E-Mail-Adresse').fill(email);
      await toNextPage(page, () => page.getByRole('button', { name: 'Einladung senden' }).click());
      await expectNotice(page, `Die Einladung an ${email} wurde verschickt.`);
    }
    await accessible(page);
    await toNextPage(page, () => page.getByRole('button', { name: 'Einladung an weg@example.com zurückziehen' }).click());
    await expect(page.getByRole('status').textContent()).resolves.toBe('Die Einladung wurde zurückgezogen.');
    await expect(page.getByRole('button', { name: /zurückziehen/ }).count()).resolves.toBe(1);

    const invitee = await newPage();
    await invitee.goto(`${base}${linkIn(await mailTo(smtp, 'kollegin@example.com'), 'invitations')}`);
    await expect(heading(invitee)).resolves.toBe('Einladung annehmen');
    await accessible(invitee);
    await invitee.getByLabel('Neues Passwort', { exact: true }).fill(NEW_PASSWORD);
    await invitee.getByLabel('Neues Passwort wiederholen').fill(NEW_PASSWORD);
    await toNextPage(invitee, () => invitee.getByRole('button', { name: 'Konto anlegen' }).click());
    expect(path(invitee)).toBe('/dashboard');
    await expect(invitee.locator('header .company').textContent()).resolves.toBe(user.company.name);

    const revoked = await newPage();
    await revoked.goto(`${base}${linkIn(await mailTo(smtp, 'weg@example.com'), 'invitations')}`);
    await expect(heading(revoked)).resolves.toBe('Einladung ungültig');
    await accessible(revoked);
    expect(consoleErrors.filter((text) => !/\b(410|422)\b/.test(text))).toEqual([]);
  }, 120_000);
});

/**
 * Waits for the notice; if it does not come, the failure says which page is there and what it says
 * instead. (CI saw the team page without notice or alert: the redirect had been followed before the session
 * with the notice was stored — src/web/session-saved-first.ts, test/web/session-redirect.)
 */
async function expectNotice(page: Page, text: string): Promise<void> {
  const notice = page.getByRole('status').filter({ hasText: text });
  const came = await notice.waitFor({ timeout: 45_000 }).then(
    () => true,
    () => false,
  );
  if (came) return;
  const said = await page.locator('h1, [role=status], [role=alert]').allTextContents();
  throw new Error(`no notice "${text}" at ${page.url()}; the page says: ${JSON.stringify(said)}`);
}
