// SQL for the reminders waiting for approval: invoices in ready_for_reminderN whose reminder N does not
// exist yet. The run that proposed one is, of the succeeded runs that finished after the invoice became
// ready, the one of the latest business date (each run re-checks the waiting invoices and steps back
// those that no longer qualify, so a later run proposes it again); its business date is the reminder's.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { statement, statementFamily } from '../../database/sql/statement.js';

export interface WaitingReminder {
  invoiceId: string;
  customerId: string;
  invoiceNumber: string | null;
  openAmount: string;
  stage: 1 | 2 | 3;
  /** The proposing run; null when no recorded run proposed it (it must be proposed again). */
  runId: string | null;
  businessDate: string | null;
}

/** A waiting reminder locked for approval, with the reason it may no longer be issued. */
export interface LockedWaitingReminder extends WaitingReminder {
  refusal: string | null;
}

interface Row {
  invoice_id: string;
  customer_id: string;
  invoice_number: string | null;
  open_amount: string;
  stage: 1 | 2 | 3;
  run_id: string | null;
  business_date: string | null;
}

export interface ApprovalFilters {
  customerId?: string;
  stage?: 1 | 2 | 3;
}

const STAGE = `right(i.status, 1)::int`;

const COLUMNS = `i.id AS invoice_id, i.customer_id, i.invoice_number, i.open_amount::text AS open_amount, ${STAGE} AS stage,
       run.id AS run_id, to_char(run.business_date, 'YYYY-MM-DD') AS business_date`;

/** Which invoices wait for approval ($1 company, invoices as `i`); the dashboard counts by it too. */
export const WAITING_CONDITION = `i.company_id = $1 AND i.status IN ('ready_for_reminder1', 'ready_for_reminder2', 'ready_for_reminder3')
   AND NOT EXISTS (SELECT 1 FROM reminders x WHERE x.company_id = i.company_id AND x.invoice_id = i.id AND x.reminder_stage = ${STAGE})`;

const WAITING = `FROM invoices i
  LEFT JOIN LATERAL (
    SELECT e.created_at FROM invoice_events e
     WHERE e.company_id = i.company_id AND e.invoice_id = i.id AND e.kind = 'status_changed' AND e.to_status = i.status
     ORDER BY e.id DESC LIMIT 1
  ) moved ON true
  LEFT JOIN LATERAL (
    SELECT r.id, r.business_date FROM dunning_runs r
     WHERE r.company_id = i.company_id AND r.status = 'succeeded' AND r.finished_at >= moved.created_at
     ORDER BY r.business_date DESC, r.started_at DESC LIMIT 1
  ) run ON true
 WHERE ${WAITING_CONDITION}`;

const FILTERS = `AND ($2::uuid IS NULL OR i.customer_id = $2::uuid) AND ($3::int IS NULL OR ${STAGE} = $3::int)`;

const PAGE = statement<Row>(
  'dunning.approvals_page',
  `SELECT ${COLUMNS} ${WAITING} ${FILTERS} ORDER BY i.due_date, i.id LIMIT $4 OFFSET $5`,
);
const COUNT = statement<{ n: number }>('dunning.approvals_count', `SELECT count(*)::int AS n ${WAITING} ${FILTERS}`);

/**
 * The waiting reminders to approve or reject (all, or those of the given invoices, $4), their invoices
 * locked; with the send-time guards as of the business date $2 ($3: the levels' minimum open amounts).
 */
const LOCK = statementFamily<{ only: boolean }, Row & { refusal: string | null }>(
  'dunning.approvals_lock',
  ({ only }) => `SELECT ${COLUMNS},
       CASE
         WHEN (SELECT c.stop_automatic_reminders FROM customers c WHERE c.company_id = i.company_id AND c.id = i.customer_id)
           THEN 'the customer has stop_automatic_reminders'
         WHEN i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $2::date)
           THEN 'dunning block: ' || i.dunning_block_reason
         WHEN i.open_amount < ($3::numeric[])[${STAGE}] THEN 'the open amount is below ' || ($3::numeric[])[${STAGE}]
       END AS refusal
  ${WAITING} ${only ? 'AND i.id = ANY($4::uuid[])' : ''}
  ORDER BY i.id
  FOR UPDATE OF i`,
  [{ only: true }, { only: false }],
);

const STATUSES = statement<{ id: string; status: string }>(
  'dunning.approvals_invoice_statuses',
  `SELECT id, status FROM invoices WHERE company_id = $1 AND id = ANY($2::uuid[])`,
);

const toWaiting = (r: Row): WaitingReminder => ({
  invoiceId: r.invoice_id,
  customerId: r.customer_id,
  invoiceNumber: r.invoice_number,
  openAmount: r.open_amount,
  stage: r.stage,
  runId: r.run_id,
  businessDate: r.business_date,
});

@Injectable()
export class ApprovalsRepository {
  constructor(private readonly sql: Sql) {}

  async page(companyId: string, filters: ApprovalFilters, perPage: number, offset: number) {
    const params = [companyId, filters.customerId ?? null, filters.stage ?? null];
    const rows = await this.sql.rows(PAGE, [...params, perPage, offset]);
    const { n } = await this.sql.one(COUNT, params);
    return { items: rows.map(toWaiting), total: n };
  }

  async lock(
    m: EntityManager,
    companyId: string,
    today: string,
    minimums: readonly string[],
    invoiceIds?: string[],
  ): Promise<LockedWaitingReminder[]> {
    const params = [companyId, today, minimums, ...(invoiceIds ? [invoiceIds] : [])];
    const rows = await this.sql.rows(LOCK({ only: !!invoiceIds }), params, m);
    return rows.map((r) => ({ ...toWaiting(r), refusal: r.refusal }));
  }

  /** The status of each given invoice of the company (the others are not found). */
  async statuses(m: EntityManager, companyId: string, invoiceIds: string[]): Promise<Map<string, string>> {
    const rows = await this.sql.rows(STATUSES, [companyId, invoiceIds], m);
    return new Map(rows.map((r) => [r.id, r.status]));
  }
}
