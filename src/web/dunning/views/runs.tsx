// The dunning run history and one run: date, trigger, status, transitions, reminders, fees, warnings,
// and the invoices the run touched.
import { toPublicId } from '../../../common/ids.js';
import type { RunRecord } from '../../../dunning/dunning-runs.repository.js';
import { Layout, type PageContext } from '../../views/layout.js';
import { type InvoiceSummary, TOUCHED_LIMIT } from '../dunning-web.repository.js';
import { DunningTabs, Flash } from './tabs.js';

export function RunsPage({
  page,
  runs,
  current,
  pages,
  error,
}: {
  page: PageContext;
  runs: RunRecord[];
  current: number;
  pages: number;
  error?: string;
}) {
  const { t, date, dateTime, money } = page.lang;
  return (
    <Layout page={page} title={t('dunning.runs.title')}>
      <DunningTabs page={page} current="/dunning/runs" />
      <Flash error={error} />
      <form class="dunning" method="post" action="/dunning/runs">
        <input type="hidden" name="_csrf" value={page.csrf} />
        <button type="submit" safe>
          {t('dunning.workbench.runNow')}
        </button>
      </form>
      <section class="card" aria-labelledby="runs-h">
        <h2 id="runs-h" safe>
          {t('dunning.runs.title')}
        </h2>
        {runs.length === 0 ? (
          <p safe>{t('dunning.runs.none')}</p>
        ) : (
          <table data-table="runs">
            <thead>
              <tr>
                {(['date', 'started', 'trigger', 'status', 'transitions', 'reminders', 'fees', 'warnings'] as const).map((key) => (
                  <th scope="col" class={key === 'reminders' || key === 'fees' ? 'num' : undefined} safe>
                    {t(`dunning.runs.${key}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr data-run={toPublicId('run', run.id)}>
                  <td>
                    <a href={`/dunning/runs/${toPublicId('run', run.id)}`} safe>
                      {date(run.businessDate)}
                    </a>
                  </td>
                  <td safe>{dateTime(run.startedAt)}</td>
                  <td data-trigger={run.trigger} safe>
                    {t(`dunning.trigger.${run.trigger}`)}
                  </td>
                  <td safe>{t(`dunning.runStatus.${run.status}`)}</td>
                  <td safe>{transitionsText(page, run)}</td>
                  <td class="num" safe>
                    {String(run.remindersCreated)}
                  </td>
                  <td class="num" safe>
                    {money(run.feesPlanned)}
                  </td>
                  <td safe>{String(run.errors.length)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <nav aria-label={t('dunning.runs.page', { page: current, pages })}>
          <p>
            {current > 1 ? (
              <a href={`/dunning/runs?page=${current - 1}`} safe>
                {t('dunning.runs.previous')}
              </a>
            ) : (
              ''
            )}{' '}
            <span safe>{t('dunning.runs.page', { page: current, pages })}</span>{' '}
            {current < pages ? (
              <a href={`/dunning/runs?page=${current + 1}`} safe>
                {t('dunning.runs.next')}
              </a>
            ) : (
              ''
            )}
          </p>
        </nav>
      </section>
    </Layout>
  );
}

function transitionsText(page: PageContext, run: RunRecord): string {
  const entries = Object.entries(run.transitions);
  if (entries.length === 0) return page.lang.t('none');
  return entries.map(([action, count]) => `${page.lang.t(`dunning.action.${action}`)}: ${count}`).join(', ');
}

export function RunPage({
  page,
  run,
  invoices,
  notice,
}: {
  page: PageContext;
  run: RunRecord;
  invoices: InvoiceSummary[];
  notice?: string;
}) {
  const { t, date, dateTime, money } = page.lang;
  return (
    <Layout page={page} title={t('dunning.run.title', { date: date(run.businessDate) })}>
      <DunningTabs page={page} current="/dunning/runs" />
      <Flash notice={notice} />
      <div class="grid">
        <section class="card" aria-labelledby="facts-h">
          <h2 id="facts-h" safe>
            {t('dunning.run.facts')}
          </h2>
          <dl class="facts">
            <dt safe>{t('dunning.runs.trigger')}</dt>
            <dd data-trigger={run.trigger} safe>
              {t(`dunning.trigger.${run.trigger}`)}
            </dd>
            <dt safe>{t('dunning.runs.status')}</dt>
            <dd safe>{t(`dunning.runStatus.${run.status}`)}</dd>
            <dt safe>{t('dunning.runs.started')}</dt>
            <dd safe>{dateTime(run.startedAt)}</dd>
            <dt safe>{t('dunning.run.duration')}</dt>
            <dd safe>{run.durationMs === null ? t('none') : t('dunning.run.ms', { count: run.durationMs })}</dd>
            <dt safe>{t('dunning.runs.reminders')}</dt>
            <dd safe>{String(run.remindersCreated)}</dd>
            <dt safe>{t('dunning.runs.fees')}</dt>
            <dd safe>{money(run.feesPlanned)}</dd>
            <dt safe>{t('dunning.runs.transitions')}</dt>
            <dd safe>{transitionsText(page, run)}</dd>
          </dl>
        </section>
        <section class="card" aria-labelledby="warnings-h">
          <h2 id="warnings-h" safe>
            {t('dunning.runs.warnings')}
          </h2>
          {run.errors.length === 0 ? (
            <p safe>{t('dunning.run.noWarnings')}</p>
          ) : (
            <ul>
              {run.errors.map((warning) => (
                <li safe>{warning}</li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <section class="card" aria-labelledby="invoices-h">
        <h2 id="invoices-h" safe>
          {t('dunning.run.invoices')}
        </h2>
        {invoices.length === 0 ? (
          <p safe>{t('dunning.run.noInvoices')}</p>
        ) : (
          <>
            {invoices.length >= TOUCHED_LIMIT ? <p safe>{t('dunning.run.limited', { count: TOUCHED_LIMIT })}</p> : ''}
            <table data-table="run-invoices">
              <thead>
                <tr>
                  <th scope="col" safe>
                    {t('dunning.workbench.invoice')}
                  </th>
                  <th scope="col" safe>
                    {t('dunning.workbench.customer')}
                  </th>
                  <th scope="col" safe>
                    {t('dunning.runs.status')}
                  </th>
                  <th scope="col" class="num" safe>
                    {t('dunning.workbench.openAmount')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {invoices.map((invoice) => (
                  <tr>
                    <td>
                      <a href={`/invoices/${toPublicId('inv', invoice.id)}`} safe>
                        {invoice.invoiceNumber ?? toPublicId('inv', invoice.id)}
                      </a>
                    </td>
                    <td safe>{invoice.customerName}</td>
                    <td safe>{t(`status.${invoice.status}`)}</td>
                    <td class="num" safe>
                      {money(invoice.openAmount)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
        <p>
          <a href="/dunning/runs" safe>
            {t('dunning.run.back')}
          </a>
        </p>
      </section>
    </Layout>
  );
}
