// Executes one pull run: customers, then receivable items changed since the watermark, then items
// cleared since the clearing watermark. Records are mapped page by page and written in batches of a
// $top window, or BATCH_ROWS rows when the window is larger (one transaction each, together with the
// run's counts, two at a time while the next pages download); a stream's watermark is committed only
// when the stream has been read to its end. So a run that fails or dies midway leaves whole batches
// behind (idempotent upserts) and the old watermark, and the next run reads the rest again without
// duplicating anything.
//
// A run that reads the whole open list (mode full, the first pull, or a mapping without change or
// clearing dates) then reconciles: the connection's invoices that are still open here but were not in
// that list are asked for by key, and what the ERP cleared is booked and settled (whatever the clearing
// date says, so back-dated clearings are caught too).
import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { addDays } from '../../common/calendar-date.js';
import { toPublicId } from '../../common/ids.js';
import { SecretBoxError } from '../../common/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { ConnectorError } from '../../connectors/connector-error.js';
import type { ODataClient } from '../../connectors/odata-client.js';
import { dateLiteral, type ODataRecord, stringLiteral } from '../../connectors/odata-wire.js';
import { ErpClients } from '../connections/erp-clients.js';
import type { ErpConnection, Watermarks } from '../connections/erp-connection.entity.js';
import { ErpConnectionsRepository } from '../connections/erp-connections.repository.js';
import { type ErpMapping, effectiveMapping, selectedProperties } from '../mapping/erp-mapping.js';
import { type CustomerRow, type InvoiceRow, type Mapped, mapItem, mapPartner } from '../mapping/erp-record-mapper.js';
import { BatchWriter } from './batch-writer.js';
import { BatchTally, type Entity, RunTally } from './run-tally.js';
import type { PullRun } from './pull-run.entity.js';
import { PullRunsRepository } from './pull-runs.repository.js';
import { PulledItemsWriter, type Seen } from '../pulled-items.writer.js';
import { PullReconciliationRepository, type UnseenInvoice } from '../pull-reconciliation.repository.js';
import { PullUpsertsRepository } from '../pull-upserts.repository.js';

/** The run was declared interrupted (and resumed elsewhere), its connection deleted or its watermarks reset: stop writing. */
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

/** A reconciliation reads the unseen open invoices this many at a time... */
const UNSEEN_PAGE = 1000;
/** ...and asks the ERP for this many keys per request (a $filter of ORed keys; URLs stay a few KB). */
const KEYS_PER_REQUEST = 25;

interface RunContext {
  run: PullRun;
  runId: string;
  connection: ErpConnection;
  mapping: ErpMapping;
  client: ODataClient;
  tally: RunTally;
  /** Committed watermarks, advanced stream by stream. */
  watermarks: Watermarks;
  /** The connection's watermark generation when the run read it: a reset since then wins. */
  generation: number;
}

const and = (...parts: Array<string | null | undefined | false>) =>
  parts
    .filter((p): p is string => Boolean(p))
    .map((p) => `(${p})`)
    .join(' and ');

const later = (a: string | undefined, b: string | null | undefined) => (!b || (a && a >= b) ? a : b);
const earlier = (a: string | undefined, b: string | null | undefined) => (!b || (a && a <= b) ? a : b);
const today = () => new Date().toISOString().slice(0, 10);

@Injectable()
export class ErpPullRunner implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ErpPullRunner.name);
  private readonly active = new Map<string, AbortController>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly connections: ErpConnectionsRepository,
    private readonly runs: PullRunsRepository,
    private readonly upserts: PullUpsertsRepository,
    private readonly reconciliation: PullReconciliationRepository,
    private readonly items: PulledItemsWriter,
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
      const context: RunContext = {
        run,
        runId,
        connection,
        mapping: effectiveMapping(connection.mapping),
        client,
        tally,
        watermarks: { ...connection.watermarks },
        generation: connection.watermarkGeneration,
      };
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
    await this.runs.finish(run.companyId, run.id, error ? 'failed' : 'succeeded', tally.final(), error).catch((e: unknown) =>
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
      write: async (manager, rows, batch) => {
        const outcomes = await this.upserts.upsertCustomers(manager, ctx.connection.companyId, rows);
        for (const outcome of outcomes.values()) batch.count('customers', outcome);
        return [];
      },
    });
  }

  private async pullReceivables(ctx: RunContext): Promise<void> {
    const m = ctx.mapping.receivables;
    const path = this.entityPath(ctx, 'receivables', m.entity_set);
    const started = today();
    // Without both dates nothing tells what changed or was cleared: every run reads the whole open list.
    const incremental = Boolean(m.change_date && m.clearing_date) && ctx.run.mode !== 'full';
    const since = incremental ? ctx.watermarks.receivables : undefined;
    const reconcile = !since;
    ctx.tally.reconciling = reconcile;
    const hadClearings = ctx.watermarks.clearings;
    const options = { path, key: m.key, map: (record: ODataRecord) => mapItem(record, m, ctx.connection.currency), write: this.writeItems(ctx) };
    // Changed since the watermark (open or cleared); otherwise every open item.
    await this.stream<InvoiceRow>(ctx, 'receivables', 'receivables', {
      ...options,
      filter: and(m.filter, since ? `${m.change_date} ge ${this.literal(ctx, addDays(since, -1))}` : m.open_filter),
      dateOf: (row) => row.changeDate,
      seen: reconcile ? (row) => row.erpKey : undefined,
    });
    if (m.clearing_date && !hadClearings) {
      // Nothing pulled before can have been cleared unseen: clearings are read from today on.
      await this.commitWatermark(ctx, 'clearings', started);
    } else if (m.clearing_date && hadClearings) {
      // Clearing may not touch LastChangeDate: newly cleared items are asked for separately.
      await this.stream<InvoiceRow>(ctx, 'receivables', 'clearings', {
        ...options,
        filter: and(m.filter, m.cleared_filter, `${m.clearing_date} ge ${this.literal(ctx, addDays(hadClearings, -1))}`),
        dateOf: (row) => row.clearingDate,
      });
    }
    if (reconcile) await this.reconcile(ctx, started);
  }

  /**
   * Reads a query to its end in batches. Failed records hold the stream's watermark at their change
   * date, so the next run reads them again; skipped ones do not. `seen`: the run reads the whole open
   * list, and every item in it is marked seen for the reconciliation.
   */
  private async stream<T extends { externalId: string }>(
    ctx: RunContext,
    entity: Entity,
    stream: Stream,
    spec: {
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
    const write = (rows: T[], seen: Seen) => {
      const batch = tally.take();
      return () =>
        this.db
          .transaction(async (manager) => {
            for (const failed of rows.length || seen.length ? await spec.write(manager, rows, batch, seen) : []) failedAt(spec.dateOf(failed));
            await this.progress(manager, ctx, batch);
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
    if (watermark) await this.commitWatermark(ctx, stream, watermark, summary);
    else await this.db.transaction((manager) => this.progress(manager, ctx, summary)).then(() => tally.commit(summary));
  }

  /**
   * The connection's invoices open here that the ERP's open list no longer holds: asked for by key, a
   * few at a time, and written like any pulled item (a cleared one is booked with its clearing date and
   * settled). Those the ERP does not know at all stay open and are listed in the run's errors.
   */
  private async reconcile(ctx: RunContext, started: string): Promise<void> {
    const m = ctx.mapping.receivables;
    const { connection, tally } = ctx;
    const path = this.entityPath(ctx, 'receivables', m.entity_set);
    const select = selectedProperties(ctx.mapping).receivables;
    const write = this.writeItems(ctx);
    let after: string | null = null;
    for (;;) {
      const unseen = await this.reconciliation.unseenOpen(this.db.manager, connection.companyId, connection.id, ctx.run.id, after, UNSEEN_PAGE);
      if (unseen.length === 0) break;
      after = unseen[unseen.length - 1].invoiceId;
      for (let i = 0; i < unseen.length; i += KEYS_PER_REQUEST) {
        const batch = tally.take();
        const asked: UnseenInvoice[] = [];
        const clauses: string[] = [];
        for (const item of unseen.slice(i, i + KEYS_PER_REQUEST)) {
          batch.reconciliation.missing++;
          const clause = this.keyFilter(m.fields.external_id, item);
          if (clause) {
            asked.push(item);
            clauses.push(clause);
          } else {
            batch.reconciliation.not_found++;
            batch.report('receivables', item.externalId, `open here, but its key does not fit the mapping's ${m.fields.external_id.length} key properties: the ERP cannot be asked for it`);
          }
        }
        const rows: InvoiceRow[] = [];
        const found = new Set<string>();
        const filter = and(m.filter, clauses.join(' or '));
        const pages = clauses.length ? ctx.client.pages(path, { select, filter, orderby: m.key }, { pageSize: connection.pageSize, keyFields: m.key }) : [];
        for await (const page of pages) {
          tally.pages++;
          for (const record of page.records) {
            const mapped = mapItem(record, m, connection.currency);
            if ('row' in mapped) {
              rows.push(mapped.row);
              found.add(mapped.row.externalId.toLowerCase());
              if (mapped.row.cleared) batch.reconciliation.cleared++;
            } else {
              found.add(mapped.key.toLowerCase());
              if ('skip' in mapped) batch.skip('receivables', mapped.skip);
              else batch.fail('receivables', mapped.key, mapped.failure);
            }
          }
        }
        for (const item of asked) {
          if (found.has(item.externalId.toLowerCase())) continue;
          batch.reconciliation.not_found++;
          batch.report('receivables', item.externalId, 'open here, but the ERP has no such item any more (archived or deleted?): left open, check it in the ERP');
        }
        await this.db.transaction(async (manager) => {
          if (rows.length) await write(manager, rows, batch);
          await this.progress(manager, ctx, batch);
        });
        tally.commit(batch);
      }
    }
    const summary = new BatchTally();
    for (const error of tally.skipSummaries('receivables')) summary.report('receivables', error.key, error.message);
    await this.commitWatermark(ctx, 'reconciled', started, summary);
  }

  /** `(K1 eq '1010' and K2 eq '2026' and …)`: one item by the values of its key properties (those the ERP sent, else the external_id's parts). */
  private keyFilter(paths: string[], item: UnseenInvoice): string | undefined {
    const values = Array.isArray(item.erpKey) && item.erpKey.length === paths.length ? item.erpKey : item.externalId.split('-');
    if (values.length !== paths.length) return undefined;
    return `(${paths.map((path, i) => `${path} eq ${typeof values[i] === 'number' ? String(values[i]) : stringLiteral(String(values[i]))}`).join(' and ')})`;
  }

  private async progress(manager: EntityManager, ctx: RunContext, batch: BatchTally, watermarks?: Watermarks): Promise<void> {
    const download = { pages: ctx.tally.pages, requests: ctx.tally.requests, watermarks };
    if (!(await this.runs.progress(manager, ctx.connection.companyId, ctx.run.id, batch, download))) throw new RunSuperseded('the run was ended elsewhere');
  }

  private async commitWatermark(ctx: RunContext, stream: Stream, date: string, batch = new BatchTally()): Promise<void> {
    const watermarks = { ...ctx.watermarks, [stream]: date };
    await this.db.transaction(async (manager) => {
      const saved = await this.connections.saveWatermarks(manager, ctx.connection.companyId, ctx.connection.id, ctx.generation, { [stream]: date });
      if (!saved) {
        throw new RunSuperseded('the connection was pointed at another system, service or mapping during the run: its watermarks are not kept, the next run reads everything');
      }
      await this.progress(manager, ctx, batch, watermarks);
    });
    ctx.watermarks = watermarks;
    ctx.tally.watermarks = { ...watermarks };
    ctx.tally.commit(batch);
  }

  private writeItems(ctx: RunContext) {
    const owner = { companyId: ctx.connection.companyId, connectionId: ctx.connection.id, runId: ctx.run.id, runPublicId: ctx.runId };
    return (manager: EntityManager, rows: InvoiceRow[], batch: BatchTally, seen: Seen = []) => this.items.write(manager, owner, rows, batch, seen);
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
