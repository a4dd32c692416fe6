// The wire JSON of a pull run: when, how far (pages, requests), what happened to the records, the
// watermarks it started from and reached, and what went wrong.
import { formatDateTime } from '../../common/dates.js';
import { toPublicId } from '../../common/ids.js';
import type { PullRun } from './pull-run.entity.js';

export function serializePullRun(run: PullRun, timeZone: string) {
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
