// /integrations/erp: the company's connections with their address, sign-in, schedule and last pull.
// Members read it; the owner's buttons (add) are not shown to them (the server refuses them anyway).
import { toPublicId } from '../../../common/ids.js';
import type { ErpConnection } from '../../../erp-pull/connections/erp-connection.entity.js';
import type { PullRun } from '../../../erp-pull/run/pull-run.entity.js';
import { Notices } from '../../exceptions/views/exception-parts.js';
import type { Notice } from '../../exceptions/exception-pages.js';
import { Layout, type PageContext } from '../../views/layout.js';
import { INTEGRATIONS_LINKS, SectionNav } from '../../views/section-nav.js';
import { RunStatus, ScheduleText } from './run-parts.js';

export interface ConnectionRow {
  connection: ErpConnection;
  lastRun: PullRun | undefined;
}

export function ConnectionsPage({ page, rows, notices }: { page: PageContext; rows: ConnectionRow[]; notices: Notice[] }) {
  const { t, dateTime } = page.lang;
  const owner = page.user?.role === 'owner';
  return (
    <Layout page={page} title={t('erp.title')}>
      <SectionNav page={page} label={t('nav.integrationsLabel')} links={INTEGRATIONS_LINKS} />
      <Notices page={page} notices={notices} />
      <section class="card" aria-labelledby="erp-h">
        <h2 id="erp-h" safe>
          {t('erp.intro')}
        </h2>
        {rows.length === 0 ? (
          <p safe>{t('erp.none')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                {['name', 'baseUrl', 'authMethod', 'schedule', 'lastPull'].map((key) => (
                  <th scope="col" safe>
                    {t(`erp.${key}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map(({ connection, lastRun }) => {
                const id = toPublicId('erp', connection.id);
                return (
                  <tr data-connection={id}>
                    <td>
                      <a href={`/integrations/erp/${id}`} safe>
                        {connection.name}
                      </a>
                    </td>
                    <td safe>{connection.baseUrl}</td>
                    <td safe>{t(`erp.auth.${connection.authMethod}`)}</td>
                    <td>
                      <ScheduleText page={page} connection={connection} />
                    </td>
                    <td>
                      {lastRun ? (
                        <>
                          <a href={`/integrations/erp/${id}/pulls/${toPublicId('pul', lastRun.id)}`} safe>
                            {dateTime(lastRun.finishedAt ?? lastRun.startedAt ?? lastRun.queuedAt)}
                          </a>{' '}
                          <RunStatus page={page} status={lastRun.status} />
                        </>
                      ) : (
                        <span safe>{t('erp.never')}</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {owner ? (
          <p>
            <a class="button" href="/integrations/erp/new" safe>
              {t('erp.add')}
            </a>
          </p>
        ) : (
          ''
        )}
      </section>
    </Layout>
  );
}
