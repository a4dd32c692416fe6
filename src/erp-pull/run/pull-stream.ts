// Reads one stream of a pull run (customers, changed items, cleared items) to its end: records are
// mapped page by page and written in batches of a $top window, or BATCH_ROWS rows when the window is
// larger (one transaction each, together with the run's counts, two at a time while the next pages
// download); the stream's watermark is committed only when it has been read to its end.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ODataRecord } from '../../connectors/odata-wire.js';
import { selectedProperties } from '../mapping/erp-mapping.js';
import type { Mapped } from '../mapping/erp-record-mapper.js';
import type { Seen } from './pulled-items.writer.js';
import { BatchWriter } from './batch-writer.js';
import { earlier, later, type RunContext, type Stream } from './run-context.js';
import { RunProgress } from './run-progress.js';
import { BatchTally, type Entity } from './run-tally.js';

/** Batches of one stream written at the same time: the database works on two while the ERP sends the next. */
const CONCURRENT_BATCHES = 2;

/**
 * At most this many rows per batch (one transaction; whole pages are added until a batch holds a $top
 * window or this many): half of SAP's largest window, so the database starts on the first rows sooner
 * and has less left to do once the last page has arrived, while the per-batch statements and the
 * progress update stay a small share.
 */
const BATCH_ROWS = 2500;

export interface StreamSpec<T> {
  path: string;
  filter: string;
  key: string[];
  map: (record: ODataRecord) => Mapped<T>;
  dateOf: (row: T) => string | null;
  /**
   * Writes the rows, counting into the batch; returns rows that failed there (an unknown customer).
   * `seen`: the keys of the open list's records in this batch, when the run reconciles.
   */
  write: (manager: EntityManager, rows: T[], batch: BatchTally, seen: Seen) => Promise<T[]>;
  seen?: (row: T) => string;
}

@Injectable()
export class PullStreams {
  constructor(private readonly progress: RunProgress) {}

  /**
   * Reads a query to its end in batches. Failed records hold the stream's watermark at their change
   * date, so the next run reads them again; skipped ones do not. `seen`: the run reads the whole open
   * list, and every item in it is marked seen for the reconciliation.
   */
  async read<T extends { externalId: string }>(ctx: RunContext, entity: Entity, stream: Stream, spec: StreamSpec<T>): Promise<void> {
    const { connection, tally } = ctx;
    let newest: string | undefined;
    let oldestFailed: string | undefined;
    let undatedFailure = false;
    const failedAt = (date: string | null) => {
      if (date) oldestFailed = earlier(oldestFailed, date);
      else undatedFailure = true;
    };
    const select = selectedProperties(ctx.mapping)[entity];
    const pages = ctx.client.pages(spec.path, { select, filter: spec.filter, orderby: spec.key }, { pageSize: connection.pageSize, keyFields: spec.key });
    // A batch is a $top window's worth of rows (server pages are often smaller), or BATCH_ROWS when the
    // window is larger, written while the next ones are read.
    const batchRows = Math.min(connection.pageSize, BATCH_ROWS);
    const writer = new BatchWriter(CONCURRENT_BATCHES);
    const write = (rows: T[], seen: Seen) => {
      const batch = tally.take();
      return () =>
        this.progress
          .transaction(async (manager) => {
            for (const failed of rows.length || seen.length ? await spec.write(manager, rows, batch, seen) : []) failedAt(spec.dateOf(failed));
            await this.progress.record(manager, ctx, batch);
          })
          .then(() => tally.commit(batch));
    };
    let rows: T[] = [];
    let seen: Seen = [];
    try {
      for await (const page of pages) {
        tally.pages++;
        for (const record of page.records) {
          const mapped = spec.map(record);
          if ('row' in mapped) {
            rows.push(mapped.row);
            newest = later(newest, spec.dateOf(mapped.row));
            if (spec.seen) seen.push({ externalId: mapped.row.externalId, erpKey: spec.seen(mapped.row) });
            continue;
          }
          if ('skip' in mapped) tally.mapping.skip(entity, mapped.skip);
          else {
            tally.mapping.fail(entity, mapped.key, mapped.failure);
            failedAt(mapped.changeDate);
          }
          if (spec.seen && mapped.key) seen.push({ externalId: mapped.key, erpKey: null });
        }
        if (rows.length >= batchRows) {
          await writer.submit(write(rows, seen));
          rows = [];
          seen = [];
        }
      }
      await writer.submit(write(rows, seen));
    } finally {
      // Whatever ended the reading, the batches under way finish (or fail) before the stream does.
      await writer.drain();
    }
    const summary = new BatchTally();
    for (const error of tally.skipSummaries(entity)) summary.report(entity, error.key, error.message);
    const previous = ctx.watermarks[stream];
    const watermark = undatedFailure ? undefined : oldestFailed ? earlier(newest ?? oldestFailed, oldestFailed) : later(previous, newest);
    if (watermark) await this.progress.commitWatermark(ctx, stream, watermark, summary);
    else await this.progress.recordAlone(ctx, summary);
  }
}
