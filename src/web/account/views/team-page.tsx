// The team page: the company's users, its open invitations (each revocable) and the invitation form.
import { Layout, type PageContext } from '../../views/layout.js';
import type { OpenInvitation, TeamMember } from '../invitations.repository.js';

export interface TeamProps {
  userId: string;
  members: TeamMember[];
  invitations: OpenInvitation[];
  /** What the invitation form shows again after a refusal. */
  form?: { email: string; error: 'invalid' | 'alreadyMember' | 'mailFailed' };
  notice?: string;
}

export function TeamPage({ page, props }: { page: PageContext; props: TeamProps }) {
  const { t, dateTime } = page.lang;
  const error = props.form?.error;
  return (
    <Layout page={page} title={t('account.team.title')}>
      {props.notice ? (
        <p class="notice" role="status" safe>
          {props.notice}
        </p>
      ) : (
        ''
      )}
      <section class="card" aria-labelledby="members">
        <h2 id="members" safe>
          {t('account.team.members')}
        </h2>
        <table>
          <thead>
            <tr>
              <th scope="col" safe>
                {t('account.team.email')}
              </th>
              <th scope="col" safe>
                {t('account.team.since')}
              </th>
            </tr>
          </thead>
          <tbody>
            {props.members.map((member) => (
              <tr>
                <td safe>{member.id === props.userId ? `${member.email} ${t('account.team.you')}` : member.email}</td>
                <td safe>{dateTime(member.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
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
          <table>
            <thead>
              <tr>
                {(['email', 'invitedAt', 'invitedBy', 'expiresAt', 'actions'] as const).map((key) => (
                  <th scope="col" safe>
                    {t(`account.team.${key}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.invitations.map((invitation) => (
                <tr>
                  <td safe>{invitation.email}</td>
                  <td safe>{dateTime(invitation.createdAt)}</td>
                  <td safe>{invitation.invitedBy ?? t('account.team.operator')}</td>
                  <td safe>{dateTime(invitation.expiresAt)}</td>
                  <td>
                    <form method="post" action={`/team/invitations/${invitation.id}/revoke`}>
                      <input type="hidden" name="_csrf" value={page.csrf} />
                      <button type="submit" aria-label={t('account.team.revokeLabel', { email: invitation.email })} safe>
                        {t('account.team.revoke')}
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
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
            value={props.form?.email ?? ''}
            aria-invalid={error === 'invalid' || error === 'alreadyMember' ? 'true' : undefined}
            aria-describedby={error ? 'invite-error invite-hint' : 'invite-hint'}
          />
          <button type="submit" safe>
            {t('account.team.inviteSubmit')}
          </button>
        </form>
      </section>
    </Layout>
  );
}
