// /exceptions/erp-pulls: the connections whose latest pull failed, with the time, the error and a link to
// the run's page.
import { toPublicId } from '../../../common/ids.js';
import type { PageMeta } from '../../../common/pagination.js';
import type { Notice } from '../../exceptions/exception-pages.js';
import { Notices, Pager, SectionNav } from '../../exceptions/views/exception-parts.js';
import { Layout, type PageContext } from '../../views/layout.js';
import type { FailedPull } from '../failed-pulls.repository.js';

export function FailedPullsPage({
  page,
  pulls,
  meta,
  notices,
}: {
  page: PageContext;
  pulls: FailedPull[];
  meta: PageMeta;
  notices: Notice[];
}) {
  const { t, dateTime } = page.lang;
  return (
    <Layout page={page} title={t('erp.failedPulls.title')}>
      <SectionNav page={page} />
      <Notices page={page} notices={notices} />
      <section class="card" aria-labelledby="failed-h">
        <h2 id="failed-h" safe>
          {t('erp.failedPulls.intro')}
        </h2>
        {pulls.length === 0 ? (
          <p safe>{t('erp.failedPulls.none')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                {['connection', 'at', 'error', 'run'].map((key) => (
                  <th scope="col" safe>
                    {t(`erp.failedPulls.${key}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {pulls.map((pull) => {
                const connection = toPublicId('erp', pull.connectionId);
                const run = toPublicId('pul', pull.runId);
                return (
                  <tr data-run={run}>
                    <td>
                      <a href={`/integrations/erp/${connection}`} safe>
                        {pull.connectionName}
                      </a>
                    </td>
                    <td safe>{dateTime(pull.at)}</td>
                    <td safe>{pull.error ?? '–'}</td>
                    <td>
                      <a href={`/integrations/erp/${connection}/pulls/${run}`} safe>
                        {t('erp.run.open')}
                      </a>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        <Pager page={page} meta={meta} path="/exceptions/erp-pulls" query={{}} />
      </section>
    </Layout>
  );
}
