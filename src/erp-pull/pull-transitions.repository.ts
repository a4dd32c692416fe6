// Status changes of pulled invoices, set-based: all invoices a batch settles (or reopens) move in one
// statement, with their events. Which invoices is the pull's; the move itself (sources, target, side
// effects, events) is the ledger's set-based form of the one transition table (setBasedTransitionSql).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';
import { setBasedTransitionSql } from '../invoices/ledger/set-based-status.js';
import { sourceStatuses } from '../invoices/ledger/status-changes.js';

/** settle: the invoices among these keys (lower-cased external_ids) whose open amount is zero or less. */
const SETTLE = statement<{ moved: number }>(
  'ledger.pull_settle',
  () => setBasedTransitionSql('settle', 'lower(i.external_id) = ANY ($4::text[]) AND i.external_id IS NOT NULL AND i.open_amount <= 0', 'erp_pull'),
  { plan: 'custom' },
);
/** reopen: the invoices among these ids with money open again. */
const REOPEN = statement<{ moved: number }>(
  'ledger.pull_reopen',
  () => setBasedTransitionSql('reopen', 'i.id = ANY ($4::uuid[]) AND i.open_amount > 0', 'erp_pull'),
  { plan: 'custom' },
);

@Injectable()
export class PullTransitionsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * One statement for all of them, through the invoice transition table; every moved invoice gets its
   * status_changed event. Returns how many moved.
   */
  async transition(
    manager: EntityManager,
    companyId: string,
    runId: string,
    change: { action: 'settle'; keys: string[] } | { action: 'reopen'; invoiceIds: string[] },
    reason: string,
  ): Promise<number> {
    const values = change.action === 'settle' ? change.keys : change.invoiceIds;
    if (values.length === 0) return 0;
    const details = change.action === 'settle' ? JSON.stringify({ pull_run: runId }) : null;
    const { moved } = await this.sql.one(change.action === 'settle' ? SETTLE : REOPEN, [companyId, runId, sourceStatuses(change.action), values, reason, details], manager);
    return moved;
  }
}
