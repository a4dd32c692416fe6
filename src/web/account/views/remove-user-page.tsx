// The confirmation before a user is removed: it names the consequence (their sessions end at once) and
// removes only as a POST with the CSRF token.
import { Layout, type PageContext } from '../../views/layout.js';
import type { TeamMember } from '../team.repository.js';

export function RemoveUserPage({ page, member }: { page: PageContext; member: TeamMember }) {
  const { t } = page.lang;
  return (
    <Layout page={page} title={t('account.team.removeTitle', { email: member.email })}>
      <section class="card">
        <p id="consequence" safe>
          {t('account.team.removeConsequence', { email: member.email })}
        </p>
        <p safe>{t('account.team.removeAgain')}</p>
        <form class="stack" method="post" action={`/team/users/${member.id}/remove`}>
          <input type="hidden" name="_csrf" value={page.csrf} />
          <button type="submit" class="danger" aria-describedby="consequence" safe>
            {t('account.team.removeSubmit')}
          </button>{' '}
          <a href="/team" safe>
            {t('account.team.cancel')}
          </a>
        </form>
      </section>
    </Layout>
  );
}
