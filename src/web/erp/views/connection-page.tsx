// A connection's page: its settings (secrets only as set / not set), the owner's actions (edit, test,
// pull now, delete) and its pull runs, newest first.
import { toPublicId } from '../../../common/ids.js';
import type { PageMeta } from '../../../common/pagination.js';
import type { ErpConnection } from '../../../erp-pull/connections/erp-connection.entity.js';
import type { PullRun } from '../../../erp-pull/run/pull-run.entity.js';
import type { Notice } from '../../exceptions/exception-pages.js';
import { Notices, Pager } from '../../exceptions/views/exception-parts.js';
import { Layout, type PageContext } from '../../views/layout.js';
import { INTEGRATIONS_LINKS, SectionNav } from '../../views/section-nav.js';
import { RunsTable, ScheduleText } from './run-parts.js';

interface Props {
  page: PageContext;
  connection: ErpConnection;
  runs: PullRun[];
  meta: PageMeta;
  notices: Notice[];
}

function PostButton({
  page,
  action,
  label,
  fields = {},
}: {
  page: PageContext;
  action: string;
  label: string;
  fields?: Record<string, string>;
}) {
  return (
    <form class="inline" method="post" action={action}>
      <input type="hidden" name="_csrf" value={page.csrf} />
      {Object.entries(fields).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" safe>
        {label}
      </button>
    </form>
  );
}

export function ConnectionPage({ page, connection, runs, meta, notices }: Props) {
  const { t, dateTime } = page.lang;
  const id = toPublicId('erp', connection.id);
  const base = `/integrations/erp/${id}`;
  const secrets = connection.secretNames.length
    ? connection.secretNames.map((name) => `${t(`erp.field.${name}`)}: ${t('erp.form.secretSet')}`)
    : [t('erp.form.secretUnset')];
  return (
    <Layout page={page} title={connection.name}>
      <SectionNav page={page} label={t('nav.integrationsLabel')} links={INTEGRATIONS_LINKS} />
      <Notices page={page} notices={notices} />
      <section class="card" aria-labelledby="settings-h">
        <h2 id="settings-h" safe>
          {t('erp.connection.settings')}
        </h2>
        <dl class="facts">
          <dt safe>{t('erp.baseUrl')}</dt>
          <dd safe>{connection.baseUrl}</dd>
          <dt safe>{t('erp.authMethod')}</dt>
          <dd safe>{t(`erp.auth.${connection.authMethod}`)}</dd>
          <dt safe>{t('erp.connection.secrets')}</dt>
          <dd data-secrets safe>
            {secrets.join(' · ')}
          </dd>
          <dt safe>{t('erp.schedule')}</dt>
          <dd>
            <ScheduleText page={page} connection={connection} />
          </dd>
          <dt safe>{t('erp.connection.nextPull')}</dt>
          <dd safe>{dateTime(connection.nextPullAt)}</dd>
        </dl>
        {page.user?.role === 'owner' ? (
          <div class="erp-actions">
            <a class="button" href={`${base}/edit`} safe>
              {t('erp.connection.edit')}
            </a>{' '}
            <PostButton page={page} action={`${base}/test`} label={t('erp.connection.test')} />
            <PostButton page={page} action={`${base}/pulls`} label={t('erp.connection.pullIncremental')} fields={{ mode: 'incremental' }} />
            <PostButton page={page} action={`${base}/pulls`} label={t('erp.connection.pullFull')} fields={{ mode: 'full' }} />
            <details>
              <summary safe>{t('erp.connection.delete')}</summary>
              <p class="help" safe>
                {t('erp.connection.deleteHelp')}
              </p>
              <PostButton page={page} action={`${base}/delete`} label={t('erp.connection.delete')} />
            </details>
          </div>
        ) : (
          ''
        )}
      </section>
      <section class="card" aria-labelledby="runs-h">
        <h2 id="runs-h" safe>
          {t('erp.connection.runs')}
        </h2>
        {runs.length === 0 ? <p safe>{t('erp.connection.noRuns')}</p> : <RunsTable page={page} connectionId={id} runs={runs} />}
        <Pager page={page} meta={meta} path={base} query={{}} />
      </section>
    </Layout>
  );
}
