// Writes a batch of pulled receivable items: invoices upserted (and, in a reconciling run, every item
// of the open list marked seen); clearings booked as payments and the invoices settled; clearings reset
// in the ERP undone and the invoices reopened. Outcomes are counted into the batch.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { InvoiceRow } from '../mapping/erp-record-mapper.js';
import { PullReconciliationRepository } from '../reconcile/pull-reconciliation.repository.js';
import { PullTransitionsRepository } from './pull-transitions.repository.js';
import { PullUpsertsRepository } from './pull-upserts.repository.js';
import type { BatchTally } from './run-tally.js';

/** Items of the ERP's open list in a batch of a reconciling run: key, and the ERP key values for rows. */
export type Seen = Array<{ externalId: string; erpKey: string | null }>;

export interface ItemOwner {
  companyId: string;
  connectionId: string;
  /** The pull run's id (what seen marks carry) and public id (what events name). */
  runId: string;
  runPublicId: string;
}

@Injectable()
export class PulledItemsWriter {
  constructor(
    private readonly upserts: PullUpsertsRepository,
    private readonly reconciliation: PullReconciliationRepository,
    private readonly transitions: PullTransitionsRepository,
  ) {}

  /** Returns the rows that failed (an unknown customer). */
  async write(manager: EntityManager, owner: ItemOwner, rows: InvoiceRow[], batch: BatchTally, seen: Seen): Promise<InvoiceRow[]> {
    const { companyId, runPublicId } = owner;
    const seenRun = seen.length ? owner.runId : null;
    const outcomes = await this.upserts.upsertInvoices(manager, companyId, runPublicId, { connectionId: owner.connectionId, seenRun }, rows);
    // Written rows were marked seen by the upsert; the rest of the open list's records are marked here.
    const unwritten = seen.filter((item) => !outcomes.has(item.externalId.toLowerCase()) || outcomes.get(item.externalId.toLowerCase()) === 'missing_customer');
    if (unwritten.length) await this.reconciliation.markSeen(manager, companyId, owner.connectionId, owner.runId, unwritten);
    const failed: InvoiceRow[] = [];
    const cleared: InvoiceRow[] = [];
    const existingOpen: string[] = [];
    const changed: string[] = [];
    for (const row of rows) {
      const key = row.externalId.toLowerCase();
      const outcome = outcomes.get(key) ?? 'unchanged';
      if (outcome === 'missing_customer') {
        batch.fail('receivables', row.externalId, `customer ${row.customer} is unknown (not among the pulled customers)`);
        failed.push(row);
        continue;
      }
      if (outcome === 'cleared_unknown') {
        batch.skip('receivables', 'cleared before it was pulled open');
        continue;
      }
      batch.count('receivables', outcome);
      if (row.cleared) cleared.push(row);
      else if (outcome !== 'created') existingOpen.push(key);
      if (row.cleared || outcome === 'updated') changed.push(key);
    }
    const { clearings } = batch;
    clearings.payments += await this.upserts.recordClearings(manager, companyId, runPublicId, cleared);
    const reset = await this.upserts.removeResetClearings(manager, companyId, runPublicId, existingOpen);
    clearings.reopened += await this.transitions.transition(manager, companyId, runPublicId, { action: 'reopen', invoiceIds: reset }, 'the clearing was reset in the ERP');
    clearings.settled += await this.transitions.transition(manager, companyId, runPublicId, { action: 'settle', keys: changed }, 'cleared in the ERP');
    return failed;
  }
}
