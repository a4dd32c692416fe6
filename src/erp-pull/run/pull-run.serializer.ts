// The wire JSON of a pull run and its schema: when, how far (pages, requests), what happened to the
// records, the watermarks it started from and reached, and what went wrong.
import { formatDateTime } from '../../common/dates.js';
import { toPublicId } from '../../common/ids.js';
import { PageMetaSchema } from '../../openapi/pagination.schema.js';
import { dateTimeProperty, enumProperty, freeObjectProperty, idProperty, integerProperty, textProperty } from '../../openapi/properties.js';
import { arrayOf, component, type Wire } from '../../openapi/schema.js';
import type { PullRun } from './pull-run.entity.js';

const count = (description?: string) => integerProperty({ minimum: 0, ...(description ? { description } : {}) });

export const PullRunSchema = component('PullRun', {
  id: idProperty('pul', 'Service id of the pull run; its requests carry X-Request-ID <id>-<sequence>'),
  connection_id: idProperty('erp', 'The connection'),
  trigger: enumProperty(['manual', 'schedule', 'resume']),
  mode: enumProperty(['incremental', 'full']),
  status: enumProperty(['queued', 'running', 'succeeded', 'failed']),
  resumed_from: textProperty({ nullable: true, description: 'The interrupted run this one resumed' }),
  queued_at: dateTimeProperty(),
  started_at: dateTimeProperty({ nullable: true }),
  finished_at: dateTimeProperty({ nullable: true }),
  pages: count(),
  requests: count('HTTP requests, retries included'),
  created: count(),
  updated: count(),
  unchanged: count(),
  failed: count(),
  skipped: count('Not collected: credits, other currencies, items cleared before they were ever pulled open'),
  counts: freeObjectProperty({
    description:
      'The counts per entity; clearings: payments recorded, invoices settled and reopened; reconciliation (a full run): invoices open here but no longer ' +
      'in the ERP’s open list, of them found cleared, and not found',
  }),
  watermark_from: freeObjectProperty(),
  watermark_to: freeObjectProperty({ nullable: true }),
  error: textProperty({ nullable: true, description: 'Why the run failed' }),
  errors: arrayOf(
    { type: 'object', properties: { entity: { type: 'string' }, key: { type: 'string', nullable: true }, message: { type: 'string' } } },
    { description: 'The first 100 record errors and skip notes' },
  ),
});

export const PullRunResponseSchema = component('PullRunResponse', { pull_run: PullRunSchema });

export const PullRunListSchema = component('PullRunList', { pull_runs: arrayOf(PullRunSchema), meta: PageMetaSchema }, { description: 'Newest first' });

export function serializePullRun(run: PullRun, timeZone: string): Wire<typeof PullRunSchema> {
  return {
    id: toPublicId('pul', run.id),
    connection_id: toPublicId('erp', run.connectionId),
    trigger: run.trigger,
    mode: run.mode,
    status: run.status,
    resumed_from: run.resumedFrom ? toPublicId('pul', run.resumedFrom) : null,
    queued_at: formatDateTime(run.queuedAt, timeZone),
    started_at: formatDateTime(run.startedAt, timeZone),
    finished_at: formatDateTime(run.finishedAt, timeZone),
    pages: run.pages,
    requests: run.requests,
    created: run.created,
    updated: run.updated,
    unchanged: run.unchanged,
    failed: run.failed,
    skipped: run.skipped,
    counts: run.counts,
    watermark_from: run.watermarkFrom,
    watermark_to: run.watermarkTo,
    error: run.error,
    errors: run.errors,
  };
}
