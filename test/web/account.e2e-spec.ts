// Password reset and invitations over HTTP (no browser), with e-mail through a real SMTP server: the
// reset link is single-use and expires, every address gets the same answer, requests are rate limited,
// an invitation makes a user of the same company, and the operator CLI invites too.
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { useTestApp } from '../support/use-test-app.js';
import { agentOf, accountTestConfig, linkIn, mailTo, requestReset, setPassword } from './account-support.js';
import { registerUser, signIn } from './web-support.js';

const NEW_PASSWORD = 'Neues!Passwort2';

describe('password reset (HTTP)', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  const t = useTestApp(() => accountTestConfig(smtp));
  afterEach(async () => smtp.reset());
  afterAll(async () => smtp?.close());
  const agent = () => agentOf(t.app);
  const sessionsOf = async (companyId: string) =>
    (await t.db.query(`SELECT sid FROM web_sessions WHERE sess->>'companyId' = $1 AND expires_at > now()`, [companyId.slice(4)])).length;

  it('mails a single-use link that sets a new password, ends every other session and signs the user in', async () => {
    const { email, company } = await registerUser(t.app);
    const elsewhere = agent();
    expect((await signIn(elsewhere, email)).status).toBe(303);
    const browser = agent();
    expect((await browser.get('/sign-in').expect(200)).text).toContain('href="/password-reset"');

    const asked = await requestReset(browser, email.toUpperCase());
    expect(asked.status).toBe(303);
    expect(asked.headers.location).toBe('/password-reset/sent');
    expect((await browser.get('/password-reset/sent').expect(200)).text).toContain('Wenn es zu dieser E-Mail-Adresse ein Konto gibt');
    const mail = await mailTo(smtp, email);
    expect(mail.parsed.subject).toBe('Passwort zurücksetzen');
    expect(mail.parsed.text).toMatch(/^Sehr geehrte Damen und Herren,\n\nfür Ihr Konto /);
    expect(mail.parsed.text).toContain('Mit freundlichen Grüßen\n');
    const link = linkIn(mail, 'password-reset');
    // Only the token's hash is stored, and the link lasts one hour.
    const [row] = await t.db.query(
      `SELECT encode(token_hash, 'hex') AS hash, extract(epoch FROM expires_at - created_at) AS seconds FROM password_resets`,
    );
    expect(row.hash).not.toContain(Buffer.from(link.split('/')[2]).toString('hex'));
    expect(Math.round(Number(row.seconds))).toBe(3600);

    const form = await browser.get(link).expect(200);
    expect(form.text).toContain(email);
    const weak = await setPassword(browser, link, 'kurz');
    expect(weak.status).toBe(422);
    expect(weak.text).toContain('Das Passwort erfüllt die Regeln nicht');
    const mismatch = await setPassword(browser, link, NEW_PASSWORD, 'Anderes!Passwort3');
    expect(mismatch.status).toBe(422);
    expect(mismatch.text).toContain('Die beiden Passwörter stimmen nicht überein.');
    expect((await signIn(agent(), email)).status).toBe(303); // nothing changed yet

    const done = await setPassword(browser, link, NEW_PASSWORD);
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/password-reset/done');
    expect((await browser.get('/password-reset/done').expect(200)).text).toContain('Alle anderen Sitzungen Ihres Kontos wurden beendet.');
    await browser.get('/dashboard').expect(200);
    await elsewhere.get('/dashboard').expect(303);
    expect(await sessionsOf(company.id)).toBe(1);

    // Spent: the link opens nothing any more, and a second submission changes nothing.
    expect((await agent().get(link).expect(410)).text).toContain('Dieser Link ist abgelaufen oder wurde bereits verwendet.');
    expect((await setPassword(agent(), link, 'Dritte!Passwort4')).status).toBe(410);
    expect((await signIn(agent(), email)).status).toBe(401);
    expect((await signIn(agent(), email, NEW_PASSWORD)).status).toBe(303);
  });

  it('refuses an expired link, and every link of the user is spent by one reset', async () => {
    const { email } = await registerUser(t.app);
    expect((await requestReset(agent(), email)).status).toBe(303);
    const first = linkIn(await mailTo(smtp, email), 'password-reset');
    expect((await requestReset(agent(), email)).status).toBe(303);
    const second = linkIn(await mailTo(smtp, email, 2), 'password-reset');
    await t.db.query(`UPDATE password_resets SET expires_at = now() - interval '1 second', created_at = now() - interval '1 hour'`);
    await agent().get(first).expect(410);
    expect((await setPassword(agent(), first, NEW_PASSWORD)).status).toBe(410);
    expect((await signIn(agent(), email)).status).toBe(303);

    await t.db.query(`UPDATE password_resets SET expires_at = now() + interval '1 hour'`);
    expect((await setPassword(agent(), second, NEW_PASSWORD)).status).toBe(303);
    await agent().get(first).expect(410);
    await agent().get('/password-reset/not-a-token').expect(410);
  });

  it('answers an unknown address exactly as a known one and mails nothing to it; a malformed one is shown again', async () => {
    const { email } = await registerUser(t.app);
    const unknown = await requestReset(agent(), 'niemand@example.com');
    const known = await requestReset(agent(), email);
    expect([unknown.status, unknown.headers.location]).toEqual([known.status, known.headers.location]);
    await mailTo(smtp, email);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received.flatMap((m) => m.to)).toEqual([email]);
    expect(Number((await t.db.query('SELECT count(*) FROM password_resets'))[0].count)).toBe(1);

    const malformed = await requestReset(agent(), 'kein-at-zeichen');
    expect(malformed.status).toBe(422);
    expect(malformed.text).toContain('Bitte geben Sie eine gültige E-Mail-Adresse ein.');
    expect(malformed.text).toContain('value="kein-at-zeichen"');
  });

  it('limits requests per e-mail address and per client address, whether the address has an account or not', async () => {
    const { email } = await registerUser(t.app);
    for (let i = 0; i < 3; i++) expect((await requestReset(agent(), email, `198.51.100.${10 + i}`)).status).toBe(303);
    const limited = await requestReset(agent(), email, '198.51.100.20');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
    expect(limited.text).toContain('Zu viele Anfragen in kurzer Zeit.');
    await mailTo(smtp, email, 3);

    // The sign-in budget (FAILED_AUTH_PER_MINUTE, 30 in tests) per client address and hour.
    const browser = agent();
    for (let i = 0; i < 30; i++) expect((await requestReset(browser, `fremd${i}@example.com`, '203.0.113.7')).status).toBe(303);
    expect((await requestReset(browser, 'fremd-letzte@example.com', '203.0.113.7')).status).toBe(429);
    expect((await requestReset(browser, 'fremd-letzte@example.com', '203.0.113.8')).status).toBe(303);
  });

  it('writes the e-mail in the language the user chose', async () => {
    const { email, company } = await registerUser(t.app);
    await t.db.query(`UPDATE users SET locale = 'en' WHERE company_id = $1`, [company.id.slice(4)]);
    expect((await requestReset(agent(), email)).status).toBe(303);
    const mail = await mailTo(smtp, email);
    expect(mail.parsed.subject).toBe('Reset your password');
    expect(mail.parsed.text).toMatch(/^Hello,\n\na new password was requested for your account /);
  });
});
