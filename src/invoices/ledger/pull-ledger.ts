// The ledger's set-based writes for the ERP pull: a batch's clearings booked as payments (money by the
// money rule) and undone when the ERP resets them, and the batch's invoices settled or reopened (the
// set-based form of the transition table). One statement each, with the invoices' events.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import { addMoneySql } from './money.js';
import { setBasedTransitionSql } from './set-based-status.js';
import { sourceStatuses } from './status-changes.js';

/**
 * The rest still open on each cleared invoice, booked as one payment whose external_id is $6 (the
 * prefix) || document || '-' || item, so a repeated pull books nothing twice.
 */
const RECORD_CLEARINGS = statement<{ payments: number }>(
  'ledger.pull_record_clearings',
  () => `WITH cleared AS (SELECT * FROM unnest($3::text[], $4::text[], $5::date[]) AS t(external_id, document, cleared_on)),
   target AS (
     SELECT i.id, i.external_id, i.open_amount, c.document, c.cleared_on
       FROM cleared c
       JOIN LATERAL (
         SELECT x.id, x.external_id, x.open_amount FROM invoices x
          WHERE x.company_id = $1 AND lower(x.external_id) = lower(c.external_id) AND x.external_id IS NOT NULL
            AND x.status NOT IN ('archived', 'duplicate') AND x.open_amount > 0
            FOR UPDATE
       ) i ON true
   ),
   paid AS (
     INSERT INTO payments (company_id, id, invoice_id, external_id, amount, payment_date, note, source, inkasso_payment, created_at, updated_at)
     SELECT $1, gen_random_uuid(), t.id, $6 || coalesce(t.document, '') || '-' || t.external_id, t.open_amount,
            coalesce(t.cleared_on, current_date), 'Cleared in the ERP' || coalesce(' by document ' || t.document, ''), 'ERP', false, now(), now()
       FROM target t
     ON CONFLICT (company_id, lower(external_id)) WHERE external_id IS NOT NULL DO NOTHING
     RETURNING id, invoice_id, amount
   ),
   booked AS (
     UPDATE invoices i SET ${addMoneySql('i', { paidAmount: 'p.amount' })}, updated_at = now()
       FROM paid p WHERE i.company_id = $1 AND i.id = p.invoice_id
     RETURNING i.id
   ),
   events AS (
     INSERT INTO invoice_events (company_id, invoice_id, kind, actor_type, actor_id, reason, details)
     SELECT $1, p.invoice_id, 'payment_recorded', 'erp_pull', $2, 'cleared in the ERP',
            jsonb_build_object('payment_id', p.id, 'amount', p.amount, 'pull_run', $2::text)
       FROM paid p
   )
   SELECT count(*)::int AS payments FROM paid`,
  { plan: 'custom' },
);
const REMOVE_RESET_CLEARINGS = statement<{ invoice_id: string }>(
  'ledger.pull_remove_reset_clearings',
  () => `WITH removed AS (
     DELETE FROM payments p USING invoices i
      WHERE i.company_id = $1 AND lower(i.external_id) = ANY ($3::text[]) AND i.status = 'paid'
        AND p.company_id = $1 AND p.invoice_id = i.id AND p.source = 'ERP' AND p.external_id LIKE $4 || '%'
     RETURNING p.id, p.invoice_id, p.amount
   ),
   sums AS (SELECT invoice_id, sum(amount) AS amount FROM removed GROUP BY invoice_id),
   booked AS (
     UPDATE invoices i SET ${addMoneySql('i', { paidAmount: '-s.amount' })}, updated_at = now()
       FROM sums s WHERE i.company_id = $1 AND i.id = s.invoice_id
     RETURNING i.id
   ),
   events AS (
     INSERT INTO invoice_events (company_id, invoice_id, kind, actor_type, actor_id, reason, details)
     SELECT $1, r.invoice_id, 'payment_deleted', 'erp_pull', $2, 'the clearing was reset in the ERP',
            jsonb_build_object('payment_id', r.id, 'amount', r.amount, 'pull_run', $2::text)
       FROM removed r
   )
   SELECT invoice_id FROM sums`,
  { plan: 'custom' },
);

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

export interface Clearing {
  externalId: string;
  document: string | null;
  clearedOn: string | null;
}

@Injectable()
export class PullLedger {
  constructor(private readonly sql: Sql) {}

  /** Books the clearings (one per invoice, key order) as payments; returns how many were recorded. */
  async recordClearings(manager: EntityManager, companyId: string, runId: string, clearings: Clearing[], paymentPrefix: string): Promise<number> {
    if (clearings.length === 0) return 0;
    const { payments } = await this.sql.one(
      RECORD_CLEARINGS,
      [companyId, runId, clearings.map((c) => c.externalId), clearings.map((c) => c.document), clearings.map((c) => c.clearedOn), paymentPrefix],
      manager,
    );
    return payments;
  }

  /** Removes the clearing payments of these paid invoices (keys: lower-cased external_ids); returns the invoices. */
  async removeClearings(manager: EntityManager, companyId: string, runId: string, keys: string[], paymentPrefix: string): Promise<string[]> {
    if (keys.length === 0) return [];
    const rows = await this.sql.rows(REMOVE_RESET_CLEARINGS, [companyId, runId, keys, paymentPrefix], manager);
    return rows.map((r) => r.invoice_id);
  }

  /**
   * Settles or reopens these invoices in one statement, through the transition table; every moved
   * invoice gets its status_changed event. Returns how many moved.
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
