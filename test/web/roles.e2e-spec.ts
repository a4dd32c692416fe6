// Owners and members over HTTP: a member reads the team, the dunning policy and the base rates but gets
// the 403 page "Nur für Inhaber" on every POST of them (and nothing changes); owners change roles and
// remove users (whose sessions end at once); a company never loses its last owner; an invitation's role
// is the role of the user it makes.
import request from 'supertest';
import { inviteInput } from '../../src/cli/input.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { useTestApp } from '../support/use-test-app.js';
import { accountTestConfig, agentOf, linkIn, mailTo, postForm, requestReset, setPassword, type Agent } from './account-support.js';
import { addUser } from './roles-support.js';
import { registerUser, signIn, type WebUser } from './web-support.js';

const OWNERS_ONLY = 'Nur für Inhaber';

describe('roles: owners and members (HTTP)', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  const t = useTestApp(() => accountTestConfig(smtp));
  afterEach(async () => smtp.reset());
  afterAll(async () => smtp?.close());

  async function signedIn(user: WebUser): Promise<Agent> {
    const agent = agentOf(t.app);
    expect((await signIn(agent, user.email)).status).toBe(303);
    return agent;
  }
  const uuidOf = (companyId: string) => companyId.slice(companyId.indexOf('-') + 1);
  const users = async (user: WebUser): Promise<Array<{ id: string; email: string; role: string }>> =>
    t.db.query(`SELECT id, email, role FROM users WHERE company_id = $1 ORDER BY created_at, email`, [uuidOf(user.company.id)]);
  const idOf = async (user: WebUser) => (await users(user)).find((u) => u.email === user.email)!.id;
  const policyOf = async (user: WebUser) =>
    (await request(t.app.getHttpServer()).get('/api/v1/dunning_policy').set('Authorization', user.company.auth).expect(200)).body;

  it('a member reads the team, policy and base rates without forms and gets the 403 page on every POST; nothing changes', async () => {
    const owner = await registerUser(t.app);
    const ownerAgent = await signedIn(owner);
    expect((await postForm(ownerAgent, '/team', { email: 'offen@example.com' }, '/team/invitations')).status).toBe(303);
    const [invitation] = await t.db.query(`SELECT id FROM invitations WHERE company_id = $1`, [uuidOf(owner.company.id)]);
    const member = await addUser(t.app, owner, 'member');
    const memberAgent = await signedIn(member);
    const [before, policyBefore] = await Promise.all([users(owner), policyOf(owner)]);
    const ratesBefore = await t.db.query(`SELECT valid_from, rate FROM base_interest_rates ORDER BY valid_from`);

    const team = await memberAgent.get('/team').expect(200);
    expect(team.text).toContain('Benutzer einladen, Rollen ändern und Benutzer entfernen können nur Inhaber.');
    expect(team.text).toContain('offen@example.com');
    expect(team.text).not.toMatch(/action="\/team/);
    const policy = await memberAgent.get('/dunning/policy').expect(200);
    expect(policy.text).toContain('Nur Inhaber können diese Angaben ändern.');
    expect(policy.text).not.toContain('action="/dunning/policy"');
    const rates = await memberAgent.get('/dunning/base-rates').expect(200);
    expect(rates.text).not.toContain('action="/dunning/base-rates"');

    const ownerId = await idOf(owner);
    const posts: Array<[string, Record<string, string>]> = [
      ['/team/invitations', { email: 'neu@example.com', role: 'owner' }],
      [`/team/invitations/${invitation.id}/revoke`, {}],
      [`/team/users/${ownerId}/role`, { role: 'member' }],
      [`/team/users/${await idOf(member)}/role`, { role: 'owner' }],
      [`/team/users/${ownerId}/remove`, {}],
      ['/dunning/policy', { grace_days: '30', run_at: '05:00' }],
      ['/dunning/base-rates', { valid_from: '2031-01-01', rate: '1,5' }],
    ];
    for (const [path, form] of posts) {
      const refused = await postForm(memberAgent, '/team', form, path);
      expect([path, refused.status]).toEqual([path, 403]);
      expect(refused.text).toContain(OWNERS_ONLY);
    }
    const confirm = await memberAgent.get(`/team/users/${ownerId}/remove`).expect(403);
    expect(confirm.text).toContain(OWNERS_ONLY);

    expect(await users(owner)).toEqual(before);
    expect(await policyOf(owner)).toEqual(policyBefore);
    expect(await t.db.query(`SELECT valid_from, rate FROM base_interest_rates ORDER BY valid_from`)).toEqual(ratesBefore);
    const open = await t.db.query(`SELECT email FROM invitations WHERE company_id = $1 AND revoked_at IS NULL`, [uuidOf(owner.company.id)]);
    expect(open).toEqual([{ email: 'offen@example.com' }]);
  });

  it('an owner changes roles (seen on the next request); the last owner can neither be demoted nor remove themselves', async () => {
    const owner = await registerUser(t.app);
    const colleague = await addUser(t.app, owner, 'member');
    const [ownerAgent, colleagueAgent] = [await signedIn(owner), await signedIn(colleague)];
    expect((await colleagueAgent.get('/dunning/policy').expect(200)).text).not.toContain('action="/dunning/policy"');

    const promoted = await postForm(ownerAgent, '/team', { role: 'owner' }, `/team/users/${await idOf(colleague)}/role`);
    expect([promoted.status, promoted.headers.location]).toEqual([303, '/team']);
    expect((await ownerAgent.get('/team').expect(200)).text).toContain(`${colleague.email} hat jetzt die Rolle „Inhaber“.`);
    expect((await colleagueAgent.get('/dunning/policy').expect(200)).text).toContain('action="/dunning/policy"');

    // The first owner steps down: allowed, as the colleague is an owner now; their next page has no team forms.
    expect((await postForm(ownerAgent, '/team', { role: 'member' }, `/team/users/${await idOf(owner)}/role`)).status).toBe(303);
    expect((await ownerAgent.get('/team').expect(200)).text).not.toMatch(/action="\/team/);

    const before = await users(owner);
    const demoted = await postForm(colleagueAgent, '/team', { role: 'member' }, `/team/users/${await idOf(colleague)}/role`);
    expect(demoted.status).toBe(409);
    expect(demoted.text).toContain('Ihr Unternehmen braucht mindestens einen Inhaber.');
    const removeSelf = await postForm(colleagueAgent, '/team', {}, `/team/users/${await idOf(colleague)}/remove`);
    expect(removeSelf.status).toBe(409);
    expect(removeSelf.text).toContain('Sie können sich nicht selbst entfernen.');
    expect((await colleagueAgent.get(`/team/users/${await idOf(colleague)}/remove`)).status).toBe(409);
    const badRole = await postForm(colleagueAgent, '/team', { role: 'admin' }, `/team/users/${await idOf(owner)}/role`);
    expect(badRole.status).toBe(422);
    expect(await users(owner)).toEqual(before);
  });

  it('removing a user asks first, then ends their sessions at once and takes their invitations and reset links', async () => {
    const owner = await registerUser(t.app);
    const leaving = await addUser(t.app, owner, 'owner');
    const [ownerAgent, leavingAgent] = [await signedIn(owner), await signedIn(leaving)];
    expect((await postForm(leavingAgent, '/team', { email: 'von-ihr@example.com' }, '/team/invitations')).status).toBe(303);
    expect((await requestReset(agentOf(t.app), leaving.email)).status).toBe(303);
    await mailTo(smtp, leaving.email);
    const leavingId = await idOf(leaving);
    const sessions = () => t.db.query(`SELECT sid FROM web_sessions WHERE sess->>'userId' = $1`, [leavingId]);
    expect((await sessions()).length).toBeGreaterThan(0);

    const confirm = await ownerAgent.get(`/team/users/${leavingId}/remove`).expect(200);
    expect(confirm.text).toContain(`${leaving.email} wird aus Ihrem Unternehmen entfernt und kann sich nicht mehr anmelden.`);
    expect(confirm.text).toContain('Alle Sitzungen dieses Benutzers enden sofort');
    const removed = await postForm(ownerAgent, `/team/users/${leavingId}/remove`, {});
    expect([removed.status, removed.headers.location]).toEqual([303, '/team']);
    expect((await ownerAgent.get('/team').expect(200)).text).toContain(`${leaving.email} wurde entfernt.`);

    expect((await users(owner)).map((u) => u.email)).toEqual([owner.email]);
    expect(await sessions()).toEqual([]);
    expect(await t.db.query(`SELECT id FROM invitations WHERE invited_by = $1`, [leavingId])).toEqual([]);
    expect(await t.db.query(`SELECT id FROM password_resets WHERE user_id = $1`, [leavingId])).toEqual([]);
    const next = await leavingAgent.get('/team');
    expect([next.status, next.headers.location]).toEqual([303, '/sign-in?next=%2Fteam&reason=expired']);
    expect((await signIn(agentOf(t.app), leaving.email)).status).not.toBe(303);

    // Another company's user is not found here, and stays.
    const other = await registerUser(t.app);
    const foreign = await postForm(ownerAgent, '/team', {}, `/team/users/${await idOf(other)}/remove`);
    expect(foreign.status).toBe(404);
    expect((await postForm(ownerAgent, '/team', { role: 'member' }, `/team/users/${await idOf(other)}/role`)).status).toBe(404);
    expect((await ownerAgent.get(`/team/users/${await idOf(other)}/remove`)).status).toBe(404);
    expect(await users(other)).toHaveLength(1);
  });

  it('an invitation with the role owner makes an owner; without a role it makes a member', async () => {
    const owner = await registerUser(t.app);
    const ownerAgent = await signedIn(owner);
    expect((await postForm(ownerAgent, '/team', { email: 'chefin@example.com', role: 'owner' }, '/team/invitations')).status).toBe(303);
    expect((await postForm(ownerAgent, '/team', { email: 'kollege@example.com' }, '/team/invitations')).status).toBe(303);
    expect((await ownerAgent.get('/team').expect(200)).text).toMatch(/chefin@example\.com<\/td><td>Inhaber</);

    for (const email of ['chefin@example.com', 'kollege@example.com']) {
      const invitee = agentOf(t.app);
      expect((await setPassword(invitee, linkIn(await mailTo(smtp, email), 'invitations'), 'Eingeladen!Passwort1')).status).toBe(303);
    }
    const roles = Object.fromEntries((await users(owner)).map((u) => [u.email, u.role]));
    expect(roles).toEqual({ [owner.email]: 'owner', 'chefin@example.com': 'owner', 'kollege@example.com': 'member' });
  });

  it('user:invite takes --role owner|member (member by default)', async () => {
    const company = 'cmp-00000000-0000-4000-8000-000000000000';
    await expect(inviteInput({ company, email: 'a@b.de' })).resolves.toMatchObject({ role: 'member' });
    await expect(inviteInput({ company, email: 'a@b.de', role: 'owner' })).resolves.toMatchObject({ role: 'owner' });
    await expect(inviteInput({ company, email: 'a@b.de', role: 'admin' })).rejects.toThrow('--role must be owner or member');
  });
});
