// The team page: the company's users with their roles, its open invitations and the invitation form.
// Owners manage (forms); members see the lists only, without a single form.
import type { UserRole } from '../../../companies/companies.repository.js';
import { Flash } from '../../dunning/views/tabs.js';
import { Layout, type PageContext } from '../../views/layout.js';
import { SectionNav, SETTINGS_LINKS } from '../../views/section-nav.js';
import type { OpenInvitation } from '../invitations.repository.js';
import type { TeamMember } from '../team.repository.js';
import { InvitationsTable, MembersTable, RoleOptions } from './team-parts.js';

export interface TeamProps {
  userId: string;
  /** True for an owner: the page shows its forms. */
  manages: boolean;
  members: TeamMember[];
  invitations: OpenInvitation[];
  /** What the invitation form shows again after a refusal. */
  form?: { email: string; role: UserRole; error: 'invalid' | 'alreadyMember' | 'mailFailed' };
  notice?: string;
  /** A refused role change or removal, in the page's words. */
  error?: string;
}

export function TeamPage({ page, props }: { page: PageContext; props: TeamProps }) {
  const { t } = page.lang;
  return (
    <Layout page={page} title={t('account.team.title')}>
      <SectionNav page={page} label={t('nav.settingsLabel')} links={SETTINGS_LINKS} />
      <Flash notice={props.notice} error={props.error} />
      <section class="card" aria-labelledby="members">
        <h2 id="members" safe>
          {t('account.team.members')}
        </h2>
        <p class="sub" safe>
          {t('account.team.roleHelp')}
        </p>
        {props.manages ? (
          ''
        ) : (
          <p class="sub" data-note="read-only" safe>
            {t('account.team.readOnly')}
          </p>
        )}
        <MembersTable page={page} members={props.members} userId={props.userId} manages={props.manages} />
      </section>
      <section class="card" aria-labelledby="invitations">
        <h2 id="invitations" safe>
          {t('account.team.invitations')}
        </h2>
        {props.invitations.length === 0 ? (
          <p class="sub" safe>
            {t('account.team.noInvitations')}
          </p>
        ) : (
          <InvitationsTable page={page} invitations={props.invitations} manages={props.manages} />
        )}
      </section>
      {props.manages ? <InviteForm page={page} form={props.form} /> : ''}
    </Layout>
  );
}

function InviteForm({ page, form }: { page: PageContext; form: TeamProps['form'] }) {
  const { t } = page.lang;
  const error = form?.error;
  return (
    <section class="card" aria-labelledby="invite">
      <h2 id="invite" safe>
        {t('account.team.invite')}
      </h2>
      <p class="sub" id="invite-hint" safe>
        {t('account.team.inviteHint')}
      </p>
      {error ? (
        <p class="error" role="alert" id="invite-error" safe>
          {t(error === 'invalid' ? 'account.email.invalid' : `account.team.${error}`)}
        </p>
      ) : (
        ''
      )}
      <form class="sign-in" method="post" action="/team/invitations" novalidate>
        <input type="hidden" name="_csrf" value={page.csrf} />
        <label for="invite-email" safe>
          {t('account.email.label')}
        </label>
        <input
          id="invite-email"
          name="email"
          type="email"
          autocomplete="off"
          required
          value={form?.email ?? ''}
          aria-invalid={error === 'invalid' || error === 'alreadyMember' ? 'true' : undefined}
          aria-describedby={error ? 'invite-error invite-hint' : 'invite-hint'}
        />
        <label for="invite-role" safe>
          {t('account.team.role')}
        </label>
        <select id="invite-role" name="role">
          <RoleOptions page={page} selected={form?.role ?? 'member'} />
        </select>
        <button type="submit" safe>
          {t('account.team.inviteSubmit')}
        </button>
      </form>
    </section>
  );
}
