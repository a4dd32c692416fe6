// Processes pushed documents in batches claimed from push_documents (FOR UPDATE SKIP LOCKED: safe
// with several replicas), retried with exponential backoff, then dead-lettered. Each attempt is
// recorded (attempt n, succeeded / failed). A batch is one transaction with a SAVEPOINT per document:
// a failing document rolls back alone, and the effects and their `processed` markers commit together,
// so a document takes effect exactly once whatever crashes happen. Versions of one external_id are
// applied in order: a document whose earlier version is still pending waits (deferred).
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { AppError } from '../../common/errors.js';
import { DocumentStore } from '../../documents/document-store.js';
import { BulkBookingConflict } from '../../invoices/bulk-payments.service.js';
import type { DocumentType } from '../dto/push-document.dto.js';
import { CustomerProcessor } from '../processors/customer.processor.js';
import { InvoiceProcessor } from '../processors/invoice.processor.js';
import { LedgerProcessor } from '../processors/ledger.processor.js';
import type { DocumentProcessor, FileChanges, ProcessResult } from '../processors/processor.js';
import type { LedgerLookup } from '../ledger.repository.js';
import type { PushDocument } from '../push-document.js';
import { IntakeYield } from './intake-yield.js';
import { PushSignal } from './push-signal.js';
import { type ClaimedDocument, type Failed, PushQueueRepository, type Succeeded } from './push-queue.repository.js';
import { planForCurrentTables } from '../../database/custom-plans.js';

/**
 * Client errors that can go away by themselves, retried with backoff: a reference that has not arrived
 * yet (an ERP's documents can come out of order: the payment before its invoice; replay it by hand
 * once the reference exists), and a record created by someone else at the same moment (the retry finds
 * it and updates it).
 */
const RETRYABLE: readonly string[] = [
  'customer.not_found',
  'invoice.not_found',
  'customer.external_id_taken',
  'contact.external_id_taken',
  'invoice.external_id_taken',
  'shipping.in_progress',
  'rate_limited',
];

/**
 * An error that retrying cannot cure: a client error about the document itself or about the state of
 * the record it changes (a payment id held by a REST payment, a field that can no longer change, an
 * archived invoice, a due date before the invoice date). The document is dead-lettered after this one
 * attempt, with the error, instead of three more.
 */
export function isPermanent(error: unknown): boolean {
  return error instanceof AppError && error.status >= 400 && error.status < 500 && !RETRYABLE.includes(error.code);
}

/** How often an idle worker looks for due documents (retries, deferrals, other replicas' pushes). */
const POLL_MS = 250;

/** Errors are stored and shown to the client: the message, never a stack or SQL parameters. */
function describe(error: unknown): string {
  if (error instanceof AppError) {
    const fields = error.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    return `${error.code}: ${error.message}${fields ? ` (${fields})` : ''}`;
  }
  return error instanceof Error ? error.message.slice(0, 1000) : 'processing failed';
}

/** What one run of a batch did; its files are settled after the commit. */
interface BatchRun {
  succeeded: Succeeded[];
  failed: Array<{ document: PushDocument; error: unknown }>;
  files: Map<string, FileChanges>;
  /** Processed documents a later version waits for. */
  waiting: PushDocument[];
}

/** Ends an optimistic run (no savepoints) at the first failing document: the batch runs again with savepoints. */
class DocumentFailed extends Error {}

const RERUN = { withSavepoints: 'with savepoints', withoutBulk: 'without bulk' } as const;
type Rerun = (typeof RERUN)[keyof typeof RERUN];

const companyOf = (document: PushDocument, name: string, timeZone: string) => ({ id: document.companyId, name, timeZone });
const actorOf = (document: PushDocument) => ({ type: 'push' as const, id: `doc-${document.id}` });

@Injectable()
export class PushWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PushWorker.name);
  private readonly processors: Record<DocumentType, DocumentProcessor>;
  private readonly lanes: Array<Promise<void>> = [];
  private stopping = false;
  /** Set by a wake-up that came while the lanes were busy: the next pause is skipped. */
  private woken = false;
  private readonly sleepers = new Set<() => void>();
  private readonly intake: IntakeYield;
  private unsubscribe?: () => void;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: PushQueueRepository,
    private readonly signal: PushSignal,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: DocumentStore,
    private readonly ledger: LedgerProcessor,
    customers: CustomerProcessor,
    invoices: InvoiceProcessor,
  ) {
    this.intake = new IntakeYield(config.integration.push.maxYieldMs);
    this.processors = { payment: ledger.payment, credit_memo: ledger.creditMemo, customer: customers, invoice: invoices };
  }

  onApplicationBootstrap(): void {
    const push = this.config.integration.push;
    if (!push.worker) return;
    this.unsubscribe = this.signal.subscribe(() => {
      this.intake.accepted();
      this.wake();
    });
    for (let i = 0; i < push.concurrency; i++) this.lanes.push(this.lane());
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    this.wake();
    await Promise.all(this.lanes);
  }

  /** One lane: claim a batch, process it, again at once while there is more; else wait for a wake-up or the next poll. */
  private async lane(): Promise<void> {
    const { batchSize } = this.config.integration.push;
    while (!this.stopping) {
      let claimed = 0;
      await this.intake.giveWay(() => this.stopping);
      try {
        claimed = await this.runOnce(batchSize);
      } catch (error) {
        // Database away: the claimed documents keep their lease and are taken again after it.
        this.logger.warn({ err: error }, 'push worker: could not claim or process a batch');
      }
      if (claimed < batchSize) await this.pause(POLL_MS);
      else await new Promise<void>((resolve) => setImmediate(resolve)); // HTTP gets its turn between batches
    }
  }

  private wake(): void {
    this.woken = true;
    for (const sleeper of this.sleepers) sleeper();
  }

  private pause(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  /** Claims and processes one batch; returns how many documents it claimed. */
  async runOnce(limit: number): Promise<number> {
    const push = this.config.integration.push;
    const { started, deferred, deadLettered } = await this.queue.claim(limit, {
      retryLimit: push.retryLimit,
      attemptTimeoutSeconds: push.attemptTimeoutSeconds,
      deferSeconds: push.deferSeconds,
    });
    await this.queue.wakeSuccessors(deadLettered);
    await this.queue.wakeIfFree(deferred);
    if (started.length) await this.process(started);
    return started.length + deferred.length + deadLettered.length;
  }

  /**
   * One attempt at each claimed document, all in one transaction. New payments and credits on existing
   * invoices are booked together first (bulk); the rest one by one. Optimistic first, without a
   * savepoint per document (two round trips fewer each); when a document fails, that transaction is
   * rolled back and the batch runs again with a savepoint per document, so that only the failing one
   * rolls back. When the bulk booking meets an external_id taken meanwhile, the batch runs again
   * without it, every document on its own. A document found no longer `processing` (a second run of it)
   * is left alone.
   */
  async process(claimed: ClaimedDocument[]): Promise<void> {
    // A single document gains nothing from either: it goes the careful way at once.
    let run = claimed.length > 1 ? await this.runBatch(claimed, { bulk: true, savepoints: false }) : RERUN.withoutBulk;
    if (run === RERUN.withSavepoints) run = await this.runBatch(claimed, { bulk: true, savepoints: true });
    if (run === RERUN.withoutBulk || run === RERUN.withSavepoints) run = await this.runBatch(claimed, { bulk: false, savepoints: true });
    const done = run as BatchRun;
    for (const changes of done.files.values()) await this.removeFiles(changes.obsolete);
    await this.recordFailures(done.failed);
    await this.queue.wakeSuccessors(done.waiting);
  }

  /** A BatchRun, or how to run the batch again after its transaction was rolled back. */
  private async runBatch(claimed: ClaimedDocument[], mode: { bulk: boolean; savepoints: boolean }): Promise<BatchRun | Rerun> {
    const { savepoints } = mode;
    const run: BatchRun = { succeeded: [], failed: [], files: new Map(), waiting: [] };
    try {
      await this.db.transaction(async (manager) => {
        await planForCurrentTables(manager);
        const locks = await this.queue.lockForEffect(claimed.map((c) => c.document), manager);
        const lookups = await this.lookUpBookings(claimed, locks, manager);
        // All the batch's invoices locked at once, in one order: two batches never lock two of them crosswise.
        const invoices = claimed.flatMap(({ document }) => {
          const id = lookups.get(document.id)?.invoiceId;
          return id ? [{ companyId: document.companyId, id }] : [];
        });
        await this.ledger.lockInvoices(invoices, manager);
        const inBulk = mode.bulk ? await this.bookNewInBulk(claimed, locks, lookups, manager) : new Map<string, ProcessResult>();
        for (const { document, companyName, timeZone } of claimed) {
          const lock = locks.get(document.id);
          if (lock?.status !== 'processing') continue;
          if (lock.superseded) {
            run.succeeded.push({ document, outcome: 'superseded', result: null, notes: [] });
            continue;
          }
          const bulk = inBulk.get(document.id);
          if (bulk) {
            run.succeeded.push({ document, outcome: bulk.outcome, result: bulk.result, notes: [] });
            continue;
          }
          const changes: FileChanges = { written: [], obsolete: [] };
          run.files.set(document.id, changes);
          const company = companyOf(document, companyName, timeZone);
          const actor = actorOf(document);
          if (savepoints) await manager.query('SAVEPOINT push_document');
          try {
            const result: ProcessResult = await this.processors[document.documentType].apply({ company, document, actor, manager, files: changes, ledger: lookups.get(document.id) });
            if (savepoints) await manager.query('RELEASE SAVEPOINT push_document');
            run.succeeded.push({ document, outcome: result.outcome, result: result.result, notes: result.notes ?? [] });
          } catch (error) {
            if (!savepoints) throw new DocumentFailed();
            await manager.query('ROLLBACK TO SAVEPOINT push_document');
            run.failed.push({ document, error });
            await this.removeFiles(changes.written);
            run.files.delete(document.id);
          }
        }
        run.waiting = await this.queue.markProcessed(run.succeeded, manager);
      });
    } catch (error) {
      for (const changes of run.files.values()) await this.removeFiles(changes.written);
      if (error instanceof DocumentFailed) return RERUN.withSavepoints;
      if (error instanceof BulkBookingConflict) return RERUN.withoutBulk;
      // The batch's transaction failed as a whole (database away, lost connection): every document of
      // it failed this attempt, none took effect.
      const done = new Set(run.failed.map((f) => f.document.id));
      const failed = [...run.failed, ...claimed.filter((c) => !done.has(c.document.id)).map((c) => ({ document: c.document, error }))];
      return { succeeded: [], failed, files: new Map(), waiting: [] };
    }
    return run;
  }

  /** The invoices and entries of the batch's payments and credit memos, in one statement (after the lock: a second run sees the first one's entry). */
  private async lookUpBookings(claimed: ClaimedDocument[], locks: Map<string, { status: string; superseded: boolean }>, manager: EntityManager): Promise<Map<string, LedgerLookup>> {
    const bookings = claimed
      .map((c) => c.document)
      .filter((d) => (d.documentType === 'payment' || d.documentType === 'credit_memo') && locks.get(d.id)?.status === 'processing' && !locks.get(d.id)?.superseded);
    const found = await this.ledger.lookupMany(bookings, manager);
    return new Map(bookings.map((d, i) => [d.id, found[i]]));
  }

  /**
   * New payments and credits (no entry yet) on invoices that already exist, booked together before the
   * one-by-one loop. An invoice that an invoice document of this batch changes is left to the loop, so
   * that its documents keep their order.
   */
  private async bookNewInBulk(
    claimed: ClaimedDocument[],
    locks: Map<string, { status: string; superseded: boolean }>,
    lookups: Map<string, LedgerLookup>,
    manager: EntityManager,
  ): Promise<Map<string, ProcessResult>> {
    const key = (companyId: string, externalId: string) => `${companyId}:${externalId.toLowerCase()}`;
    const changedInvoices = new Set(claimed.filter((c) => c.document.documentType === 'invoice').map((c) => key(c.document.companyId, c.document.externalId)));
    const isNew = (document: PushDocument) => {
      const lock = locks.get(document.id);
      return lock?.status === 'processing' && !lock.superseded && !lookups.get(document.id)?.entry;
    };
    // An invoice with a changed entry among the batch's documents goes one by one too (order).
    const changingEntries = new Set(claimed.flatMap((c) => (lookups.get(c.document.id)?.invoiceId && !isNew(c.document) ? [lookups.get(c.document.id)!.invoiceId] : [])));
    const candidates = claimed.flatMap(({ document, companyName, timeZone }) => {
      const ledger = lookups.get(document.id);
      if (!ledger?.invoiceId || !isNew(document) || changingEntries.has(ledger.invoiceId)) return [];
      if (changedInvoices.has(key(document.companyId, String(document.payload.invoice_external_id)))) return [];
      const company = companyOf(document, companyName, timeZone);
      return [{ company, document, actor: actorOf(document), manager, files: { written: [], obsolete: [] }, ledger: { ...ledger, invoiceId: ledger.invoiceId } }];
    });
    return candidates.length ? this.ledger.bookNew(candidates, manager) : new Map();
  }

  private async recordFailures(failures: Array<{ document: PushDocument; error: unknown }>): Promise<void> {
    if (failures.length === 0) return;
    const push = this.config.integration.push;
    const failed: Failed[] = failures.map(({ document, error }) => {
      const permanent = isPermanent(error);
      if (!(error instanceof AppError)) this.logger.warn({ err: error, document: `doc-${document.id}`, attempt: document.attempts }, 'push document failed');
      return {
        document,
        error: describe(error),
        final: permanent || document.attempts - 1 - document.attemptsBeforeReplay >= push.retryLimit,
        reason: permanent ? 'the error cannot go away by retrying' : 'every attempt failed',
      };
    });
    await this.queue.markFailed(failed, push.retryBaseSeconds);
    await this.queue.wakeSuccessors(failed.filter((f) => f.final).map((f) => f.document));
  }

  /** Best effort: a file left behind (the process died first) is unreferenced, never missing. */
  private async removeFiles(keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.store.delete(key).catch((error: unknown) => this.logger.warn({ err: error, key }, 'could not remove a replaced document file'));
    }
  }
}
