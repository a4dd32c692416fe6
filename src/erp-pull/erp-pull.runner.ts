// Executes one pull run: customers, then receivable items changed since the watermark, then items
// cleared since the clearing watermark. Records are mapped page by page and written in batches of a
// $top window, or BATCH_ROWS rows when the window is larger (one transaction each, together with the run's progress, two at a time while the next
// pages download); a stream's watermark is committed only when the stream has been read to its end. So a run that fails or dies midway leaves whole batches behind (idempotent
// upserts) and the old watermark, and the next run reads the rest again without duplicating anything.
import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { addDays } from '../common/calendar-date.js';
import { toPublicId } from '../common/ids.js';
import { SecretBoxError } from '../common/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { ConnectorError } from '../connectors/connector-error.js';
import type { ODataClient } from '../connectors/odata-client.js';
import { dateLiteral, type ODataRecord } from '../connectors/odata-wire.js';
import { InvoiceTransitions } from '../invoices/invoice-transitions.js';
import { ErpClients } from './erp-clients.js';
import type { ErpConnection, Watermarks } from './erp-connection.entity.js';
import { ErpConnectionsRepository } from './erp-connections.repository.js';
import { type ErpMapping, effectiveMapping, selectedProperties } from './erp-mapping.js';
import { type CustomerRow, type InvoiceRow, type Mapped, mapItem, mapPartner } from './erp-record-mapper.js';
import { BatchWriter } from './batch-writer.js';
import { RunTally } from './run-tally.js';
import type { PullRun } from './pull-run.entity.js';
import { PullRunsRepository } from './pull-runs.repository.js';
import { PullUpsertsRepository } from './pull-upserts.repository.js';

/** The run was declared interrupted (and resumed elsewhere), or its connection deleted: stop writing. */
class RunSuperseded extends Error {}

type Stream = keyof Watermarks;

/** Batches of one stream written at the same time: the database works on two while the ERP sends the next. */
const CONCURRENT_BATCHES = 2;

/**
 * At most this many rows per batch (one transaction; whole pages are added until a batch holds a $top
 * window or this many): half of SAP's largest window, so the database starts on the first rows sooner
 * and has less left to do once the last page has arrived, while the per-batch statements and the
 * progress update stay a small share.
 */
const BATCH_ROWS = 2500;

interface RunContext {
  run: PullRun;
  runId: string;
  connection: ErpConnection;
  mapping: ErpMapping;
  client: ODataClient;
  tally: RunTally;
  /** Committed watermarks, advanced stream by stream. */
  watermarks: Watermarks;
}

const and = (...parts: Array<string | null | undefined | false>) =>
  parts
    .filter((p): p is string => Boolean(p))
    .map((p) => `(${p})`)
    .join(' and ');

const later = (a: string | undefined, b: string | null | undefined) => (!b || (a && a >= b) ? a : b);
const earlier = (a: string | undefined, b: string | null | undefined) => (!b || (a && a <= b) ? a : b);

@Injectable()
export class ErpPullRunner implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ErpPullRunner.name);
  private readonly active = new Map<string, AbortController>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly connections: ErpConnectionsRepository,
    private readonly runs: PullRunsRepository,
    private readonly upserts: PullUpsertsRepository,
    private readonly transitions: InvoiceTransitions,
    private readonly clients: ErpClients,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Runs a started (running) run to its end and records the outcome; never throws. */
  async execute(run: PullRun): Promise<'succeeded' | 'failed'> {
    const controller = new AbortController();
    this.active.set(run.id, controller);
    const tally = new RunTally();
    const beat = setInterval(
      () =>
        void this.runs.beat(run.companyId, run.id).then(
          (alive) => alive || controller.abort(new RunSuperseded('the run was ended elsewhere')),
          () => undefined,
        ),
      Math.max(1000, (this.config.erp.staleAfterSeconds * 1000) / 4),
    );
    let error: string | null = null;
    try {
      const connection = await this.connections.findById(run.companyId, run.connectionId);
      if (!connection) throw new RunSuperseded('the connection was deleted');
      const runId = toPublicId('pul', run.id);
      const client = this.clients.create(connection, {
        requestIdPrefix: runId,
        signal: controller.signal,
        onExchange: () => tally.requests++,
      });
      const context: RunContext = { run, runId, connection, mapping: effectiveMapping(connection.mapping), client, tally, watermarks: { ...connection.watermarks } };
      try {
        if (connection.entities.includes('customers')) await this.pullCustomers(context);
        if (connection.entities.includes('receivables')) await this.pullReceivables(context);
      } finally {
        await client.close();
      }
    } catch (failure) {
      error = this.describe(failure, controller.signal);
      this.logger.warn({ run: toPublicId('pul', run.id), company: run.companyId, error }, 'ERP pull failed');
    } finally {
      clearInterval(beat);
      this.active.delete(run.id);
    }
    await this.runs.finish(run.companyId, run.id, error ? 'failed' : 'succeeded', tally.progress(), error).catch((e: unknown) =>
      this.logger.error({ err: e, run: run.id }, 'could not record the end of an ERP pull run'),
    );
    return error ? 'failed' : 'succeeded';
  }

  /** A shutting-down process ends its runs as failed; the next run resumes from their watermarks. */
  beforeApplicationShutdown(): void {
    for (const controller of this.active.values()) controller.abort(new Error('interrupted: the service shut down'));
  }

  private async pullCustomers(ctx: RunContext): Promise<void> {
    const m = ctx.mapping.customers;
    const since = ctx.run.mode === 'full' ? undefined : ctx.watermarks.customers;
    const changed = since && [m.change_date, m.creation_date].filter(Boolean).map((field) => `${field} ge ${this.literal(ctx, addDays(since, -1))}`);
    await this.stream<CustomerRow>(ctx, 'customers', 'customers', {
      path: this.entityPath(ctx, 'customers', m.entity_set),
      filter: and(m.filter, changed && changed.join(' or ')),
      key: m.key,
      map: (record) => mapPartner(record, m),
      dateOf: (row) => row.changeDate,
      write: async (manager, rows) => {
        const outcomes = await this.upserts.upsertCustomers(manager, ctx.connection.companyId, rows);
        for (const outcome of outcomes.values()) ctx.tally.count('customers', outcome);
        return [];
      },
    });
  }

  private async pullReceivables(ctx: RunContext): Promise<void> {
    const m = ctx.mapping.receivables;
    const path = this.entityPath(ctx, 'receivables', m.entity_set);
    const started = new Date().toISOString().slice(0, 10);
    const since = ctx.run.mode === 'full' ? undefined : ctx.watermarks.receivables;
    const hadClearings = ctx.watermarks.clearings;
    const options = { path, key: m.key, map: (record: ODataRecord) => mapItem(record, m, ctx.connection.currency), write: this.writeItems(ctx) };
    // Changed since the watermark (open or cleared); the first pull, or a full one: every open item.
    await this.stream<InvoiceRow>(ctx, 'receivables', 'receivables', {
      ...options,
      filter: and(m.filter, since ? `${m.change_date} ge ${this.literal(ctx, addDays(since, -1))}` : m.open_filter),
      dateOf: (row) => row.changeDate,
    });
    if (!hadClearings) {
      // Nothing pulled before can have been cleared unseen: clearings are read from today on.
      await this.commitWatermark(ctx, 'clearings', started);
      return;
    }
    // Clearing may not touch LastChangeDate: newly cleared items are asked for separately.
    await this.stream<InvoiceRow>(ctx, 'receivables', 'clearings', {
      ...options,
      filter: and(m.filter, m.cleared_filter, `${m.clearing_date} ge ${this.literal(ctx, addDays(hadClearings, -1))}`),
      dateOf: (row) => row.clearingDate,
    });
  }

  /**
   * Reads a query to its end in batches. Failed records hold the stream's watermark at their change
   * date, so the next run reads them again; skipped ones do not.
   */
  private async stream<T>(
    ctx: RunContext,
    entity: 'customers' | 'receivables',
    stream: Stream,
    spec: {
      path: string;
      filter: string;
      key: string[];
      map: (record: ODataRecord) => Mapped<T>;
      dateOf: (row: T) => string | null;
      /** Writes the rows; returns rows that failed there (an unknown customer). */
      write: (manager: EntityManager, rows: T[]) => Promise<T[]>;
    },
  ): Promise<void> {
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
    const write = (rows: T[]) => () =>
      this.db.transaction(async (manager) => {
        for (const failed of rows.length ? await spec.write(manager, rows) : []) failedAt(spec.dateOf(failed));
        if (!(await this.runs.progress(manager, connection.companyId, ctx.run.id, tally.progress()))) throw new RunSuperseded('the run was ended elsewhere');
      });
    let rows: T[] = [];
    try {
      for await (const page of pages) {
        tally.pages++;
        for (const record of page.records) {
          const mapped = spec.map(record);
          if ('row' in mapped) {
            rows.push(mapped.row);
            newest = later(newest, spec.dateOf(mapped.row));
          } else if ('skip' in mapped) {
            tally.skip(entity, mapped.skip);
          } else {
            tally.fail(entity, mapped.key, mapped.failure);
            failedAt(mapped.changeDate);
          }
        }
        if (rows.length >= batchRows) {
          await writer.submit(write(rows));
          rows = [];
        }
      }
      await writer.submit(write(rows));
    } finally {
      // Whatever ended the reading, the batches under way finish (or fail) before the stream does.
      await writer.drain();
    }
    tally.flushSkips(entity);
    if (undatedFailure) return;
    const previous = ctx.watermarks[stream];
    const watermark = oldestFailed ? earlier(newest ?? oldestFailed, oldestFailed) : later(previous, newest);
    if (watermark) await this.commitWatermark(ctx, stream, watermark);
  }

  private async commitWatermark(ctx: RunContext, stream: Stream, date: string): Promise<void> {
    ctx.watermarks[stream] = date;
    ctx.tally.watermarks = { ...ctx.watermarks };
    await this.db.transaction(async (manager) => {
      if (!(await this.runs.progress(manager, ctx.connection.companyId, ctx.run.id, ctx.tally.progress()))) throw new RunSuperseded('the run was ended elsewhere');
      await this.connections.saveWatermarks(manager, ctx.connection.companyId, ctx.connection.id, { [stream]: date });
    });
  }

  /** Invoices upserted; clearings booked as payments and settled; reset clearings undone and reopened. */
  private writeItems(ctx: RunContext) {
    return async (manager: EntityManager, rows: InvoiceRow[]): Promise<InvoiceRow[]> => {
      const companyId = ctx.connection.companyId;
      const actor = { type: 'erp_pull' as const, id: ctx.runId };
      const outcomes = await this.upserts.upsertInvoices(manager, companyId, ctx.runId, rows);
      const failed: InvoiceRow[] = [];
      const cleared: InvoiceRow[] = [];
      const existingOpen: string[] = [];
      const changed: string[] = [];
      for (const row of rows) {
        const key = row.externalId.toLowerCase();
        const outcome = outcomes.get(key) ?? 'unchanged';
        if (outcome === 'missing_customer') {
          ctx.tally.fail('receivables', row.externalId, `customer ${row.customer} is unknown (not among the pulled customers)`);
          failed.push(row);
          continue;
        }
        if (outcome === 'cleared_unknown') {
          ctx.tally.skip('receivables', 'cleared before it was pulled open');
          continue;
        }
        ctx.tally.count('receivables', outcome);
        if (row.cleared) cleared.push(row);
        else if (outcome !== 'created') existingOpen.push(key);
        if (row.cleared || outcome === 'updated') changed.push(key);
      }
      const clearings = ctx.tally.clearings;
      clearings.payments += await this.upserts.recordClearings(manager, companyId, ctx.runId, cleared);
      const reset = await this.upserts.removeResetClearings(manager, companyId, ctx.runId, existingOpen);
      for (const invoice of await this.upserts.reopenable(manager, companyId, reset)) {
        await this.transitions.apply(manager, invoice, 'reopen', actor, 'the clearing was reset in the ERP');
        clearings.reopened++;
      }
      for (const invoice of await this.upserts.settleable(manager, companyId, changed)) {
        await this.transitions.apply(manager, invoice, 'settle', actor, 'cleared in the ERP', { pull_run: ctx.runId });
        clearings.settled++;
      }
      return failed;
    };
  }

  private entityPath(ctx: RunContext, entity: 'customers' | 'receivables', entitySet: string): string {
    return `${ctx.connection.servicePaths[entity].replace(/\/+$/, '')}/${entitySet}`;
  }

  private literal(ctx: RunContext, date: string): string {
    return dateLiteral(ctx.connection.odataVersion, date);
  }

  private describe(error: unknown, signal: AbortSignal): string {
    if (signal.aborted && signal.reason instanceof Error) return signal.reason.message;
    if (error instanceof ConnectorError || error instanceof RunSuperseded || error instanceof SecretBoxError) return error.message;
    return `internal error: ${error instanceof Error ? error.message.slice(0, 500) : String(error)}`;
  }
}
