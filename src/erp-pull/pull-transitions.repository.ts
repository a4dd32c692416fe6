// Status changes of pulled invoices, set-based: all invoices a batch settles (or reopens) move in one
// statement, with their events, by the rules of the one transition table (src/invoices/invoice-status.ts).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type InvoiceAction, type InvoiceStatus, nextStatus, TRANSITIONS } from '../invoices/invoice-status.js';

@Injectable()
export class PullTransitionsRepository {
  /**
   * settle: the invoices among these keys (lower-cased external_ids) whose open amount is zero or less;
   * reopen: the invoices among these ids with money open again. One statement for all of them, through
   * the invoice transition table: the source statuses and the target come from TRANSITIONS, the side
   * effects are InvoiceTransitions.apply's, and every moved invoice gets its status_changed event.
   * Returns how many moved.
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
    const { from } = TRANSITIONS[change.action];
    const match =
      change.action === 'settle'
        ? 'lower(i.external_id) = ANY ($4::text[]) AND i.external_id IS NOT NULL AND i.open_amount <= 0'
        : 'i.id = ANY ($4::uuid[]) AND i.open_amount > 0';
    const rows: Array<{ moved: number }> = await manager.query(
      `WITH target AS (
         SELECT i.id, i.status, i.status_before_paid FROM invoices i
          WHERE i.company_id = $1 AND i.status = ANY ($3::text[]) AND ${match}
          ORDER BY i.id
            FOR UPDATE
       ),
       moved AS (
         UPDATE invoices i SET ${transitionSet(change.action)}, updated_at = now()
           FROM target t WHERE i.company_id = $1 AND i.id = t.id
         RETURNING i.id, t.status AS from_status, i.status AS to_status
       ),
       events AS (
         INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason, details)
         SELECT $1, id, 'status_changed', from_status, to_status, 'erp_pull', $2, $5, $6::jsonb FROM moved
       )
       SELECT count(*)::int AS moved FROM moved`,
      [companyId, runId, from, values, reason, change.action === 'settle' ? JSON.stringify({ pull_run: runId }) : null],
    );
    return rows[0].moved;
  }
}

/**
 * The SET clause of a status change to `to`, with the side effects InvoiceTransitions.apply has: paid
 * remembers the status it came from, a reopened invoice goes back there (nextStatus's fallback when it
 * is unknown) and forgets it, a write-off is dated.
 */
function transitionSet(action: InvoiceAction): string {
  const { from, to } = TRANSITIONS[action];
  const literal = (status: InvoiceStatus) => `'${status}'`;
  if (to === 'previous') return `status = coalesce(t.status_before_paid, ${literal(nextStatus(action, from[0], null))}), status_before_paid = NULL`;
  const sets = [`status = ${literal(to)}`];
  if (to === 'paid') sets.push('status_before_paid = t.status');
  if (to === 'written_off') sets.push('written_off_at = now()');
  return sets.join(', ');
}
