// A pull run's page: what it is (connection, kind, when), its figures (live while it runs, see
// RunProgress) and the errors of single records.
import type { Notice } from '../../exceptions/exception-pages.js';
import { Notices } from '../../exceptions/views/exception-parts.js';
import { Layout, type PageContext } from '../../views/layout.js';
import { INTEGRATIONS_LINKS, SectionNav } from '../../views/section-nav.js';
import { RunProgress, type WireRun } from './run-parts.js';

interface Props {
  page: PageContext;
  connection: { id: string; name: string };
  run: WireRun;
  queuedAt: Date;
  notices: Notice[];
}

export function RunPage({ page, connection, run, queuedAt, notices }: Props) {
  const { t } = page.lang;
  const base = `/integrations/erp/${connection.id}`;
  return (
    <Layout page={page} title={t('erp.run.title', { at: page.lang.dateTime(queuedAt) })}>
      <SectionNav page={page} label={t('nav.integrationsLabel')} links={INTEGRATIONS_LINKS} />
      <Notices page={page} notices={notices} />
      <dl class="facts card">
        <dt safe>{t('erp.run.connection')}</dt>
        <dd>
          <a href={base} safe>
            {connection.name}
          </a>
        </dd>
        <dt safe>{t('erp.run.mode')}</dt>
        <dd safe>{t(`erp.mode.${run.mode}`)}</dd>
        <dt safe>{t('erp.run.trigger')}</dt>
        <dd safe>{t(`erp.trigger.${run.trigger}`)}</dd>
      </dl>
      <RunProgress page={page} run={run} url={`${base}/pulls/${run.id}/progress`} />
      {run.errors.length ? (
        <section class="card" aria-labelledby="errors-h">
          <h2 id="errors-h" safe>
            {t('erp.run.errors')}
          </h2>
          <table data-table="errors">
            <thead>
              <tr>
                {['entity', 'key', 'message'].map((key) => (
                  <th scope="col" safe>
                    {t(`erp.run.${key}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {run.errors.map((error) => (
                <tr>
                  <td safe>{error.entity}</td>
                  <td safe>{error.key ?? '–'}</td>
                  <td safe>{error.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : (
        ''
      )}
    </Layout>
  );
}
