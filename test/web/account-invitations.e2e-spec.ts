// Invitations over HTTP (no browser) and by the operator CLI, with e-mail through a real SMTP server:
// the team page invites and revokes, the link makes a user of the SAME company who is signed in and
// can sign in again, and every refusal is a page with the reason and nothing changed.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inviteInput, UsageError } from '../../src/cli/input.js';
import { SMTP_CA_FILE, startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { TEST_DATA_DIR, testDatabaseUrl } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';
import { agentOf, accountTestConfig, linkIn, mailTo, postForm, setPassword } from './account-support.js';
import { registerUser, signIn } from './web-support.js';

const NEW_PASSWORD = 'Eingeladen!Passwort1';
const CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const REGISTER = fileURLToPath(new URL('../support/ts-register.mjs', import.meta.url));

function cli(smtpUrl: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    APP_ENV: 'test',
    DATABASE_URL: testDatabaseUrl(),
    DATA_DIR: TEST_DATA_DIR,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'https://receivables.test',
    SMTP_URL: smtpUrl,
    SMTP_CA_FILE,
    SMTP_REQUIRE_TLS: 'true',
  };
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', REGISTER, '--no-warnings', CLI, ...args], { env, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('invitations (HTTP and CLI)', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  const t = useTestApp(() => accountTestConfig(smtp));
  afterEach(async () => smtp.reset());
  afterAll(async () => smtp?.close());
  const agent = () => agentOf(t.app);
  const usersOf = async (companyId: string) =>
    (await t.db.query(`SELECT email FROM users WHERE company_id = $1 ORDER BY created_at`, [companyId.slice(4)])).map(
      (row: { email: string }) => row.email,
    );

  async function signedIn() {
    const user = await registerUser(t.app);
    const browser = agent();
    expect((await signIn(browser, user.email)).status).toBe(303);
    return { ...user, browser };
  }

  it('invites from the team page; the link makes a user of the same company, signed in at once and able to sign in again', async () => {
    const { email, company, browser } = await signedIn();
    const team = await browser.get('/team').expect(200);
    expect(team.text).toContain(`${email} (Sie)`);
    expect(team.text).toContain('Keine offenen Einladungen.');
    const invited = await postForm(browser, '/team', { email: 'kollegin@example.com' }, '/team/invitations');
    expect([invited.status, invited.headers.location]).toEqual([303, '/team']);
    const listed = await browser.get('/team').expect(200);
    expect(listed.text).toContain('Die Einladung an kollegin@example.com wurde verschickt.');
    expect(listed.text).toContain('Einladung an kollegin@example.com zurückziehen');
    expect((await browser.get('/team').expect(200)).text).not.toContain('wurde verschickt'); // shown once

    const mail = await mailTo(smtp, 'kollegin@example.com');
    expect(mail.parsed.subject).toBe(`Einladung von ${company.name}`);
    expect(mail.parsed.text).toContain(`${email} lädt Sie ein, im Forderungsmanagement von ${company.name} mitzuarbeiten.`);
    const link = linkIn(mail, 'invitations');
    const [row] = await t.db.query(`SELECT extract(epoch FROM expires_at - created_at) AS seconds FROM invitations`);
    expect(Math.round(Number(row.seconds))).toBe(7 * 24 * 3600);

    const invitee = agent();
    const form = await invitee.get(link).expect(200);
    expect(form.text).toContain(company.name);
    expect((await setPassword(invitee, link, 'schwach')).status).toBe(422);
    const accepted = await setPassword(invitee, link, NEW_PASSWORD);
    expect([accepted.status, accepted.headers.location]).toEqual([303, '/dashboard']);
    expect((await invitee.get('/dashboard').expect(200)).text).toContain(company.name);
    expect(await usersOf(company.id)).toEqual([email, 'kollegin@example.com']);
    expect((await signIn(agent(), 'kollegin@example.com', NEW_PASSWORD)).status).toBe(303);

    expect((await agent().get(link).expect(410)).text).toContain(
      'Diese Einladung ist abgelaufen, wurde zurückgezogen oder bereits angenommen.',
    );
    expect((await setPassword(agent(), link, 'Zweites!Passwort2')).status).toBe(410);
    const after = await browser.get('/team').expect(200);
    expect(after.text).toContain('kollegin@example.com');
    expect(after.text).toContain('Keine offenen Einladungen.');
  });

  it('refuses a malformed address, a user of the company and a failed e-mail with the reason, and stores nothing', async () => {
    const { email, browser } = await signedIn();
    const malformed = await postForm(browser, '/team', { email: 'kein-at' }, '/team/invitations');
    expect(malformed.status).toBe(422);
    expect(malformed.text).toContain('Bitte geben Sie eine gültige E-Mail-Adresse ein.');
    const member = await postForm(browser, '/team', { email: email.toUpperCase() }, '/team/invitations');
    expect(member.status).toBe(409);
    expect(member.text).toContain('Zu dieser E-Mail-Adresse gibt es in Ihrem Unternehmen bereits einen Benutzer.');
    smtp.refuseAll(550);
    const failed = await postForm(browser, '/team', { email: 'neu@example.com' }, '/team/invitations');
    expect(failed.status).toBe(503);
    expect(failed.text).toContain('Die Einladungs-E-Mail konnte nicht versendet werden.');
    expect(Number((await t.db.query('SELECT count(*) FROM invitations'))[0].count)).toBe(0);
  });

  it("revokes an open invitation; another company's invitation is the 404 page", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    await postForm(owner.browser, '/team', { email: 'weg@example.com' }, '/team/invitations');
    const link = linkIn(await mailTo(smtp, 'weg@example.com'), 'invitations');
    const [{ id }] = await t.db.query(`SELECT id FROM invitations`);
    expect((await other.browser.get('/team').expect(200)).text).not.toContain('weg@example.com');
    expect((await postForm(other.browser, '/team', {}, `/team/invitations/${id}/revoke`)).status).toBe(404);
    expect((await postForm(owner.browser, '/team', {}, '/team/invitations/kein-id/revoke')).status).toBe(404);

    const revoked = await postForm(owner.browser, '/team', {}, `/team/invitations/${id}/revoke`);
    expect([revoked.status, revoked.headers.location]).toEqual([303, '/team']);
    expect((await owner.browser.get('/team').expect(200)).text).toContain('Die Einladung wurde zurückgezogen.');
    await agent().get(link).expect(410);
    expect((await postForm(owner.browser, '/team', {}, `/team/invitations/${id}/revoke`)).status).toBe(404);
  });

  it('refuses an expired invitation, and one whose address got an account meanwhile', async () => {
    const { browser, company } = await signedIn();
    await postForm(browser, '/team', { email: 'spaet@example.com' }, '/team/invitations');
    const late = linkIn(await mailTo(smtp, 'spaet@example.com'), 'invitations');
    await t.db.query(`UPDATE invitations SET expires_at = now() - interval '1 second', created_at = now() - interval '7 days'`);
    await agent().get(late).expect(410);

    await postForm(browser, '/team', { email: 'doppelt@example.com' }, '/team/invitations');
    const link = linkIn(await mailTo(smtp, 'doppelt@example.com'), 'invitations');
    const invitee = agent();
    await invitee.get(link).expect(200);
    await t.http
      .post('/api/v1/registrations')
      .type('form')
      .send({ company_name: 'Andere GmbH', email: 'doppelt@example.com', password: NEW_PASSWORD })
      .expect(201);
    const taken = await setPassword(invitee, link, NEW_PASSWORD);
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('Zu dieser E-Mail-Adresse gibt es bereits ein Konto.');
    expect((await usersOf(company.id)).length).toBe(1);
  });

  it('user:invite e-mails the invitation and prints the link, which makes a user of that company', async () => {
    const { company } = await registerUser(t.app);
    const run = await cli(smtp.url, 'user:invite', '--company', company.id, '--email', 'per-cli@example.com', '--locale', 'en');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const output = JSON.parse(run.stdout);
    expect(output).toMatchObject({ company: company.id, email: 'per-cli@example.com', mailed: true });
    const mail = await mailTo(smtp, 'per-cli@example.com');
    expect(mail.parsed.subject).toBe(`Invitation from ${company.name}`);
    expect(mail.parsed.text).toContain(`The operator invites you to work in ${company.name}'s receivables management.`);
    const link = linkIn(mail, 'invitations');
    expect(output.invitation_url).toBe(`https://receivables.test${link}`);
    expect((await setPassword(agent(), link, NEW_PASSWORD)).status).toBe(303);
    expect((await usersOf(company.id)).at(-1)).toBe('per-cli@example.com');

    const unknown = await cli(smtp.url, 'user:invite', '--company', 'cmp-00000000-0000-4000-8000-000000000000', '--email', 'x@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('the company was not found');
  }, 240_000);

  it('user:invite checks its flags before it touches the database', async () => {
    const refused = (flags: Record<string, string>) =>
      inviteInput(flags).then(
        () => 'accepted',
        (error: Error) => (error instanceof UsageError ? error.message : 'other'),
      );
    await expect(refused({ email: 'a@b.de' })).resolves.toContain('--company is required');
    await expect(refused({ company: 'cmp-00000000-0000-4000-8000-000000000000' })).resolves.toContain('--email is required');
    await expect(refused({ company: 'cmp-00000000-0000-4000-8000-000000000000', email: 'nope' })).resolves.toContain(
      '--email must be an e-mail address',
    );
    await expect(refused({ company: 'cmp-00000000-0000-4000-8000-000000000000', email: 'a@b.de', locale: 'fr' })).resolves.toContain(
      '--locale must be de or en',
    );
  });
});
