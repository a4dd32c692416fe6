// The team page's parts: the users with their roles (an owner sees a role form and a remove link per
// user), the open invitations (revocable by owners) and the invitation form with its role.
import type { UserRole } from '../../../companies/companies.repository.js';
import type { PageContext } from '../../views/layout.js';
import type { OpenInvitation } from '../invitations.repository.js';
import type { TeamMember } from '../team.repository.js';

export const ROLES: readonly UserRole[] = ['member', 'owner'];

export function RoleOptions({ page, selected }: { page: PageContext; selected: UserRole }) {
  return (
    <>
      {ROLES.map((role) => (
        <option value={role} selected={role === selected} safe>
          {page.lang.t(`account.roles.${role}`)}
        </option>
      ))}
    </>
  );
}

export function MembersTable({
  page,
  members,
  userId,
  manages,
}: {
  page: PageContext;
  members: TeamMember[];
  userId: string;
  manages: boolean;
}) {
  const { t, dateTime } = page.lang;
  return (
    <table data-table="members">
      <thead>
        <tr>
          {(['email', 'role', 'since', ...(manages ? (['actions'] as const) : [])] as const).map((key) => (
            <th scope="col" safe>
              {t(`account.team.${key}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {members.map((member) => (
          <tr data-user={member.email}>
            <td safe>{member.id === userId ? `${member.email} ${t('account.team.you')}` : member.email}</td>
            <td>
              {manages ? (
                <form class="inline" method="post" action={`/team/users/${member.id}/role`}>
                  <input type="hidden" name="_csrf" value={page.csrf} />
                  <select name="role" aria-label={t('account.team.roleLabel', { email: member.email })}>
                    <RoleOptions page={page} selected={member.role} />
                  </select>{' '}
                  <button type="submit" aria-label={t('account.team.changeRoleLabel', { email: member.email })} safe>
                    {t('account.team.changeRole')}
                  </button>
                </form>
              ) : (
                <span safe>{t(`account.roles.${member.role}`)}</span>
              )}
            </td>
            <td safe>{dateTime(member.createdAt)}</td>
            {manages ? (
              <td>
                {member.id === userId ? (
                  ''
                ) : (
                  <a href={`/team/users/${member.id}/remove`} aria-label={t('account.team.removeLabel', { email: member.email })} safe>
                    {t('account.team.remove')}
                  </a>
                )}
              </td>
            ) : (
              ''
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function InvitationsTable({ page, invitations, manages }: { page: PageContext; invitations: OpenInvitation[]; manages: boolean }) {
  const { t, dateTime } = page.lang;
  const columns = ['email', 'role', 'invitedAt', 'invitedBy', 'expiresAt', ...(manages ? ['actions'] : [])];
  return (
    <table data-table="invitations">
      <thead>
        <tr>
          {columns.map((key) => (
            <th scope="col" safe>
              {t(`account.team.${key}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {invitations.map((invitation) => (
          <tr>
            <td safe>{invitation.email}</td>
            <td safe>{t(`account.roles.${invitation.role}`)}</td>
            <td safe>{dateTime(invitation.createdAt)}</td>
            <td safe>{invitation.invitedBy ?? t('account.team.operator')}</td>
            <td safe>{dateTime(invitation.expiresAt)}</td>
            {manages ? (
              <td>
                <form method="post" action={`/team/invitations/${invitation.id}/revoke`}>
                  <input type="hidden" name="_csrf" value={page.csrf} />
                  <button type="submit" aria-label={t('account.team.revokeLabel', { email: invitation.email })} safe>
                    {t('account.team.revoke')}
                  </button>
                </form>
              </td>
            ) : (
              ''
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
