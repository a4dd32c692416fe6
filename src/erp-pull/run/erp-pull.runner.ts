// Executes one pull run: customers, then receivable items changed since the watermark, then items
// cleared since the clearing watermark, each a stream read to its end in batches (pull-stream.ts); a
// stream's watermark is committed only when the stream has been read to its end. So a run that fails or
// dies midway leaves whole batches behind (idempotent upserts) and the old watermark, and the next run
// reads the rest again without duplicating anything.
//
// A run that reads the whole open list (mode full, the first pull, or a mapping without change or
// clearing dates) then reconciles (reconcile/pull-reconciler.ts).
import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { addDays } from '../../common/calendar-date.js';
import { toPublicId } from '../../common/ids.js';
import { SecretBoxError } from '../../config/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { ConnectorError } from '../../connectors/connector-error.js';
import type { ODataRecord } from '../../connectors/odata-wire.js';
import { ErpClients } from '../connections/erp-clients.js';
import { ErpInvoicePdfs } from '../documents/erp-invoice-pdfs.js';
import { ErpConnectionsRepository } from '../connections/erp-connections.repository.js';
import { effectiveMapping } from '../mapping/erp-mapping.js';
import { type CustomerRow, type InvoiceRow, mapItem, mapPartner } from '../mapping/erp-record-mapper.js';
import { PulledItemsWriter, type Seen } from './pulled-items.writer.js';
import { PullUpsertsRepository } from './pull-upserts.repository.js';
import { PullReconciler } from '../reconcile/pull-reconciler.js';
import type { PullRun } from './pull-run.entity.js';
import { PullRunsRepository } from './pull-runs.repository.js';
import { PullStreams } from './pull-stream.js';
import { and, entityPath, itemOwner, literal, type RunContext, RunSuperseded, today } from './run-context.js';
import { RunProgress } from './run-progress.js';
import { type BatchTally, RunTally } from './run-tally.js';

@Injectable()
export class ErpPullRunner implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ErpPullRunner.name);
  private readonly active = new Map<string, AbortController>();

  constructor(
    private readonly connections: ErpConnectionsRepository,
    private readonly runs: PullRunsRepository,
    private readonly upserts: PullUpsertsRepository,
    private readonly items: PulledItemsWriter,
    private readonly streams: PullStreams,
    private readonly progress: RunProgress,
    private readonly reconciler: PullReconciler,
    private readonly clients: ErpClients,
    private readonly invoicePdfs: ErpInvoicePdfs,
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
        if (connection.entities.includes('receivables')) {
          await this.pullReceivables(context);
          await this.invoicePdfs.fetchMissing(context);
        }
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
    await this.runs
      .finish(run.companyId, run.id, error ? 'failed' : 'succeeded', tally.final(), error)
      .catch((e: unknown) => this.logger.error({ err: e, run: run.id }, 'could not record the end of an ERP pull run'));
    return error ? 'failed' : 'succeeded';
  }

  /** A shutting-down process ends its runs as failed; the next run resumes from their watermarks. */
  beforeApplicationShutdown(): void {
    for (const controller of this.active.values()) controller.abort(new Error('interrupted: the service shut down'));
  }

  private async pullCustomers(ctx: RunContext): Promise<void> {
    const m = ctx.mapping.customers;
    const since = ctx.run.mode === 'full' ? undefined : ctx.watermarks.customers;
    const changed =
      since && [m.change_date, m.creation_date].filter(Boolean).map((field) => `${field} ge ${literal(ctx, addDays(since, -1))}`);
    await this.streams.read<CustomerRow>(ctx, 'customers', 'customers', {
      path: entityPath(ctx, 'customers', m.entity_set),
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
    const path = entityPath(ctx, 'receivables', m.entity_set);
    const started = today();
    // Without both dates nothing tells what changed or was cleared: every run reads the whole open list.
    const incremental = Boolean(m.change_date && m.clearing_date) && ctx.run.mode !== 'full';
    const since = incremental ? ctx.watermarks.receivables : undefined;
    const reconcile = !since;
    ctx.tally.reconciling = reconcile;
    const hadClearings = ctx.watermarks.clearings;
    const options = {
      path,
      key: m.key,
      map: (record: ODataRecord) => mapItem(record, m, ctx.connection.currency),
      write: this.writeItems(ctx),
    };
    // Changed since the watermark (open or cleared); otherwise every open item.
    await this.streams.read<InvoiceRow>(ctx, 'receivables', 'receivables', {
      ...options,
      filter: and(m.filter, since ? `${m.change_date} ge ${literal(ctx, addDays(since, -1))}` : m.open_filter),
      dateOf: (row) => row.changeDate,
      seen: reconcile ? (row) => row.erpKey : undefined,
    });
    if (m.clearing_date && !hadClearings) {
      // Nothing pulled before can have been cleared unseen: clearings are read from today on.
      await this.progress.commitWatermark(ctx, 'clearings', started);
    } else if (m.clearing_date && hadClearings) {
      // Clearing may not touch LastChangeDate: newly cleared items are asked for separately.
      await this.streams.read<InvoiceRow>(ctx, 'receivables', 'clearings', {
        ...options,
        filter: and(m.filter, m.cleared_filter, `${m.clearing_date} ge ${literal(ctx, addDays(hadClearings, -1))}`),
        dateOf: (row) => row.clearingDate,
      });
    }
    if (reconcile) await this.reconciler.reconcile(ctx, started);
  }

  private writeItems(ctx: RunContext) {
    const owner = itemOwner(ctx);
    return (manager: EntityManager, rows: InvoiceRow[], batch: BatchTally, seen: Seen = []) =>
      this.items.write(manager, owner, rows, batch, seen);
  }

  private describe(error: unknown, signal: AbortSignal): string {
    if (signal.aborted && signal.reason instanceof Error) return signal.reason.message;
    if (error instanceof ConnectorError || error instanceof RunSuperseded || error instanceof SecretBoxError) return error.message;
    return `internal error: ${error instanceof Error ? error.message.slice(0, 500) : String(error)}`;
  }
}
