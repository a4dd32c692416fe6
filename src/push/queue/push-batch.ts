// One attempt at each document of a claimed batch, all in one transaction with their `processed`
// markers: the effects and the markers commit together, so a document takes effect exactly once
// whatever crashes happen. A failing document rolls back alone (a savepoint per document, TypeORM's
// nested transaction on the batch's connection).
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { DocumentStore } from '../../documents/document-store.js';
import { BulkBookingConflict } from '../../invoices/bulk-payments.service.js';
import type { DocumentType } from '../dto/push-document.dto.js';
import type { LedgerLookup } from '../ledger.repository.js';
import { CustomerProcessor } from '../processors/customer.processor.js';
import { InvoiceProcessor } from '../processors/invoice.processor.js';
import { LedgerProcessor } from '../processors/ledger.processor.js';
import type { DocumentProcessor, FileChanges, ProcessResult } from '../processors/processor.js';
import type { PushDocument } from '../push-document.js';
import type { ClaimedDocument } from './push-claims.repository.js';
import type { PushLease } from './push-lease.js';
import { type EffectLock, PushQueueRepository, type Succeeded } from './push-queue.repository.js';

/** What one run of a batch did; its files are settled after the commit. */
export interface BatchRun {
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
export class PushBatch {
  private readonly logger = new Logger(PushBatch.name);
  private readonly processors: Record<DocumentType, DocumentProcessor>;

  constructor(
    private readonly sql: Sql,
    private readonly queue: PushQueueRepository,
    private readonly store: DocumentStore,
    private readonly ledger: LedgerProcessor,
    customers: CustomerProcessor,
    invoices: InvoiceProcessor,
  ) {
    this.processors = { payment: ledger.payment, credit_memo: ledger.creditMemo, customer: customers, invoice: invoices };
  }

  /**
   * New payments and credits on existing invoices are booked together first (bulk); the rest one by
   * one. Optimistic first, without a savepoint per document (two round trips fewer each); when a
   * document fails, that transaction is rolled back and the batch runs again with a savepoint per
   * document, so that only the failing one rolls back. When the bulk booking meets an external_id taken
   * meanwhile, the batch runs again without it, every document on its own. A document found no longer
   * `processing` under this lease (a second run of it, or taken over by another replica after this one
   * stalled past its lease) is left alone. The files the committed run replaced are removed.
   */
  async run(claimed: ClaimedDocument[], lease: PushLease): Promise<BatchRun> {
    // A single document gains nothing from either: it goes the careful way at once.
    const optimistic = claimed.length > 1;
    let run = optimistic ? await this.attempt(claimed, lease, { bulk: true, savepoints: false }) : RERUN.withoutBulk;
    if (run === RERUN.withSavepoints) {
      await lease.renew();
      run = await this.attempt(claimed, lease, { bulk: true, savepoints: true });
    }
    if (run === RERUN.withoutBulk || run === RERUN.withSavepoints) {
      if (optimistic) await lease.renew();
      run = await this.attempt(claimed, lease, { bulk: false, savepoints: true });
    }
    const done = run as BatchRun;
    for (const changes of done.files.values()) await this.removeFiles(changes.obsolete);
    return done;
  }

  /** A BatchRun, or how to run the batch again after its transaction was rolled back. */
  private async attempt(
    claimed: ClaimedDocument[],
    lease: PushLease,
    mode: { bulk: boolean; savepoints: boolean },
  ): Promise<BatchRun | Rerun> {
    const { savepoints } = mode;
    const run: BatchRun = { succeeded: [], failed: [], files: new Map(), waiting: [] };
    try {
      // Custom plans: the queue, payments and audit rows grow in a burst, and a generic plan made while
      // they were nearly empty stayed a sequential scan per batch until the next autoanalyze.
      await this.sql.transaction(
        async (manager) => {
          const locks = await this.queue.lockForEffect(
            claimed.map((c) => c.document),
            lease.token,
            manager,
          );
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
            if (!lock?.ours) continue;
            lease.assertInTime();
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
            const context = {
              company: companyOf(document, companyName, timeZone),
              document,
              actor: actorOf(document),
              manager,
              files: changes,
              ledger: lookups.get(document.id),
            };
            const processor = this.processors[document.documentType];
            try {
              const result: ProcessResult = savepoints
                ? await manager.transaction(() => processor.apply(context))
                : await processor.apply(context);
              run.succeeded.push({ document, outcome: result.outcome, result: result.result, notes: result.notes ?? [] });
            } catch (error) {
              if (!savepoints) throw new DocumentFailed();
              run.failed.push({ document, error });
              await this.removeFiles(changes.written);
              run.files.delete(document.id);
            }
          }
          lease.assertInTime();
          run.waiting = await this.queue.markProcessed(run.succeeded, lease.token, manager);
        },
        { customPlans: true },
      );
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
  private async lookUpBookings(
    claimed: ClaimedDocument[],
    locks: Map<string, EffectLock>,
    manager: EntityManager,
  ): Promise<Map<string, LedgerLookup>> {
    const bookings = claimed
      .map((c) => c.document)
      .filter(
        (d) =>
          (d.documentType === 'payment' || d.documentType === 'credit_memo') &&
          locks.get(d.id)?.ours === true &&
          !locks.get(d.id)?.superseded,
      );
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
    locks: Map<string, EffectLock>,
    lookups: Map<string, LedgerLookup>,
    manager: EntityManager,
  ): Promise<Map<string, ProcessResult>> {
    const key = (companyId: string, externalId: string) => `${companyId}:${externalId.toLowerCase()}`;
    const changedInvoices = new Set(
      claimed.filter((c) => c.document.documentType === 'invoice').map((c) => key(c.document.companyId, c.document.externalId)),
    );
    const isNew = (document: PushDocument) => {
      const lock = locks.get(document.id);
      return lock?.ours === true && !lock.superseded && !lookups.get(document.id)?.entry;
    };
    // An invoice with a changed entry among the batch's documents goes one by one too (order).
    const changingEntries = new Set(
      claimed.flatMap((c) => (lookups.get(c.document.id)?.invoiceId && !isNew(c.document) ? [lookups.get(c.document.id)!.invoiceId] : [])),
    );
    const candidates = claimed.flatMap(({ document, companyName, timeZone }) => {
      const ledger = lookups.get(document.id);
      if (!ledger?.invoiceId || !isNew(document) || changingEntries.has(ledger.invoiceId)) return [];
      if (changedInvoices.has(key(document.companyId, String(document.payload.invoice_external_id)))) return [];
      const company = companyOf(document, companyName, timeZone);
      return [
        {
          company,
          document,
          actor: actorOf(document),
          manager,
          files: { written: [], obsolete: [] },
          ledger: { ...ledger, invoiceId: ledger.invoiceId },
        },
      ];
    });
    return candidates.length ? this.ledger.bookNew(candidates, manager) : new Map();
  }

  /** Best effort: a file left behind (the process died first) is unreferenced, never missing. */
  private async removeFiles(keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.store
        .delete(key)
        .catch((error: unknown) => this.logger.warn({ err: error, key }, 'could not remove a replaced document file'));
    }
  }
}
