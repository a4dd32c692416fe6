// Parts of the connection and run pages: a run's status, the schedule in words, the runs table and the
// live progress of a run. The figures are the API's (serializePullRun), so page and API never differ.
import { toPublicId } from '../../../common/ids.js';
import type { ErpConnection } from '../../../erp-pull/connections/erp-connection.entity.js';
import type { PullRun, PullStatus } from '../../../erp-pull/run/pull-run.entity.js';
import type { serializePullRun } from '../../../erp-pull/run/pull-run.serializer.js';
import type { PageContext } from '../../views/layout.js';

export type WireRun = ReturnType<typeof serializePullRun>;

const COUNTS = ['pages', 'requests', 'created', 'updated', 'unchanged', 'failed', 'skipped'] as const;

export function RunStatus({ page, status }: { page: PageContext; status: PullStatus }) {
  return (
    <span class={`status run-${status}`} data-status={status} safe>
      {page.lang.t(`erp.status.${status}`)}
    </span>
  );
}

export function ScheduleText({ page, connection }: { page: PageContext; connection: ErpConnection }) {
  const { t } = page.lang;
  if (!connection.schedule) return <span safe>{t('erp.onRequest')}</span>;
  return (
    <>
      <code safe>{connection.schedule}</code>
      {connection.enabled ? '' : <span safe>{` (${t('erp.paused')})`}</span>}
    </>
  );
}

export function RunsTable({ page, connectionId, runs }: { page: PageContext; connectionId: string; runs: PullRun[] }) {
  const { t, dateTime, count } = page.lang;
  return (
    <table data-table="runs">
      <thead>
        <tr>
          {['queuedAt', 'mode', 'trigger', 'status', 'created', 'updated', 'unchanged', 'failed'].map((key) => (
            <th scope="col" class={COUNTS.some((c) => c === key) ? 'num' : undefined} safe>
              {t(`erp.run.${key}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr data-run={toPublicId('pul', run.id)}>
            <td>
              <a href={`/integrations/erp/${connectionId}/pulls/${toPublicId('pul', run.id)}`} safe>
                {dateTime(run.queuedAt)}
              </a>
            </td>
            <td safe>{t(`erp.mode.${run.mode}`)}</td>
            <td safe>{t(`erp.trigger.${run.trigger}`)}</td>
            <td>
              <RunStatus page={page} status={run.status} />
            </td>
            {(['created', 'updated', 'unchanged', 'failed'] as const).map((key) => (
              <td class="num" safe>
                {count(run[key])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Seconds from the start to the end (or to now, while it runs). */
function elapsedSeconds(run: WireRun, now: Date): number | undefined {
  if (!run.started_at) return undefined;
  const end = run.finished_at ? new Date(run.finished_at) : now;
  return Math.max(0, Math.round((end.getTime() - new Date(run.started_at).getTime()) / 1000));
}

export const isActive = (run: WireRun) => run.status === 'queued' || run.status === 'running';

/**
 * The run's figures. While the run is active the fragment asks for itself again every 2 s (htmx); the
 * answer for an ended run carries no trigger, so the polling stops there.
 */
export function RunProgress({ page, run, url, now = new Date() }: { page: PageContext; run: WireRun; url: string; now?: Date }) {
  const { t, count } = page.lang;
  const active = isActive(run);
  const elapsed = elapsedSeconds(run, now);
  const polling = active ? { 'hx-get': url, 'hx-trigger': 'every 2s', 'hx-swap': 'outerHTML' } : {};
  return (
    <section class="card" id="run-progress" aria-labelledby="progress-h" data-status={run.status} {...polling}>
      <h2 id="progress-h" safe>
        {t(active ? 'erp.run.progress' : 'erp.run.summary')}
      </h2>
      <p>
        <RunStatus page={page} status={run.status} />
        {active ? <span class="help" safe>{` ${t('erp.run.live')}`}</span> : ''}
      </p>
      <dl class="figures">
        {COUNTS.map((key) => (
          <div data-count={key}>
            <dt safe>{t(`erp.run.${key}`)}</dt>
            <dd safe>{count(run[key])}</dd>
          </div>
        ))}
        <div data-count="elapsed">
          <dt safe>{t('erp.run.elapsed')}</dt>
          <dd safe>{elapsed === undefined ? '–' : t('erp.run.seconds', { count: elapsed })}</dd>
        </div>
      </dl>
      {run.error ? (
        <p class="error" role="alert" safe>
          {`${t('erp.run.error')}: ${run.error}`}
        </p>
      ) : (
        ''
      )}
    </section>
  );
}
