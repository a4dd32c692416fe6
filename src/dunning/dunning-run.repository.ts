// The set-based SQL of a dunning run: each step moves all matching invoices of one company at once and
// writes their events in the same statement. Sources and targets come from the transition table.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type InvoiceAction, simpleTransition } from '../invoices/invoice-status.js';
import { FLAT_FEE, HAS_FLAT_FEE, INTEREST_FROM, INTEREST_POINTS, interestFor } from './default-interest.sql.js';

export interface RunContext {
  companyId: string;
  runId: string;
  /** The business date of the run, YYYY-MM-DD. */
  date: string;
  /** True for a proposal, which names the invoices; a run only counts them. */
  withIds?: boolean;
}

export interface StepResult {
  action: InvoiceAction;
  count: number;
  /** Filled when the context asks for ids. */
  invoiceIds: string[];
}

/** A second transition the same statement applies to the moved invoices that qualify for it at once. */
interface Hop {
  action: InvoiceAction;
  condition: string;
  reason: string;
}

export interface IssuedReminder {
  reminderId: string;
  invoiceId: string;
  stage: number;
  fee: string;
  defaultInterest: string;
  flatFee: string;
}

/** The policy's optional BGB § 288 charges. */
export interface ChargeSettings {
  defaultInterest: boolean;
  businessFlatFee: boolean;
}

/**
 * True when the run must not raise a reminder: the customer stopped them, or the invoice is blocked. The
 * customer is looked up per candidate rather than joined, so that each step reads only the invoices of
 * its source status (the status index) instead of all the company's invoices through their customers.
 */
export const BLOCKED = `((SELECT c.stop_automatic_reminders FROM customers c WHERE c.company_id = i.company_id AND c.id = i.customer_id)
  OR (i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $3::date)))`;

/** The date of the invoice's reminder of a stage. */
const reminderDate = (stage: number) =>
  `(SELECT r.reminder_date FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = ${stage})`;

const hasReminder = (stage: number) =>
  `EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = ${stage})`;

@Injectable()
export class DunningRunRepository {
  /**
   * sent → due once the due date plus the grace days has passed, and on to ready_for_reminder1 in the
   * same statement when level 1 is reached too (one row version and two events instead of two updates).
   */
  async becomeDue(m: EntityManager, ctx: RunContext, graceDays: number, waitDays: number, minimumOpen: string): Promise<StepResult[]> {
    return this.move(m, ctx, 'become_due', `i.due_date + ${int(graceDays)} < $3::date`, 'the due date has passed', this.firstLevel(waitDays, minimumOpen));
  }

  /** due → ready_for_reminder1 after the level's waiting days, above its minimum, when not blocked. */
  async readyForFirst(m: EntityManager, ctx: RunContext, waitDays: number, minimumOpen: string): Promise<StepResult> {
    const { action, condition, reason } = this.firstLevel(waitDays, minimumOpen);
    return (await this.move(m, ctx, action, condition, reason))[0];
  }

  private firstLevel(waitDays: number, minimumOpen: string): Hop {
    const condition = `$3::date - i.due_date >= ${int(waitDays)} AND i.open_amount >= ${money(minimumOpen)} AND NOT ${BLOCKED}`;
    return { action: 'ready_for_reminder1', condition, reason: `${int(waitDays)} days overdue` };
  }

  /** reminderN_sent → ready_for_reminderN+1 after the level's waiting days since reminder N. */
  readyForNext(m: EntityManager, ctx: RunContext, stage: 2 | 3, waitDays: number, minimumOpen: string) {
    const condition = `$3::date - ${reminderDate(stage - 1)} >= ${int(waitDays)} AND i.open_amount >= ${money(minimumOpen)} AND NOT ${BLOCKED}`;
    return this.one(m, ctx, stage === 2 ? 'ready_for_reminder2' : 'ready_for_reminder3', condition, `${int(waitDays)} days since reminder ${stage - 1}`);
  }

  /** reminder3_sent → ready_for_dept_collection after the collection wait (a dunning block holds it too). */
  readyForCollection(m: EntityManager, ctx: RunContext, collectionDays: number) {
    const condition = `$3::date - ${reminderDate(3)} >= ${int(collectionDays)} AND NOT ${BLOCKED}`;
    return this.one(m, ctx, 'ready_for_collection', condition, `${int(collectionDays)} days since reminder 3`);
  }

  /** ready_for_reminderN back to where it was when it became blocked or fell below the minimum before issue. */
  stepBack(m: EntityManager, ctx: RunContext, stage: 1 | 2 | 3, minimumOpen: string) {
    const condition = `NOT ${hasReminder(stage)} AND (${BLOCKED} OR i.open_amount < ${money(minimumOpen)})`;
    return this.one(m, ctx, `step_back${stage}`, condition, 'blocked, or the open amount is below the level minimum');
  }

  /**
   * Creates the missing reminder of every invoice ready for reminder N (restricted to some invoices, if
   * given), with its charges as separate columns: the level's fee, and from reminder 2 on, if the policy
   * says so, BGB § 288 default interest and the flat fee (against which the fees are credited, § 288 (5)
   * sentence 3). ignore_reminder_fees charges nothing at all.
   */
  async issueReminders(m: EntityManager, ctx: RunContext, stage: 1 | 2 | 3, fee: string, charges: ChargeSettings, onlyInvoiceIds?: string[]): Promise<IssuedReminder[]> {
    const flat = stage >= 2 && charges.businessFlatFee ? `NOT i.ignore_reminder_fees AND c.customer_type = 'business'` : 'false';
    const interest = stage >= 2 && charges.defaultInterest ? `NOT i.ignore_reminder_fees` : 'false';
    const rows: Array<{ id: string; invoice_id: string; fees: string; default_interest: string; flat_fee: string }> = await m.query(
      `INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, shipping_mode, fees, flat_fee,
                              default_interest, interest_from, interest_until, interest_points, run_id)
       SELECT i.company_id, gen_random_uuid(), i.id, ${stage}, $3::date, i.shipping_mode,
              CASE WHEN i.ignore_reminder_fees OR (x.flat AND (x.has_flat OR i.reminder_fees < ${FLAT_FEE})) THEN 0 ELSE ${money(fee)} END,
              CASE WHEN x.flat AND NOT x.has_flat THEN greatest(0, ${FLAT_FEE} - i.reminder_fees) ELSE 0 END,
              CASE WHEN x.interest_from <= $3::date THEN ${interestFor('x.interest_from', '$3::date')} ELSE 0 END,
              CASE WHEN x.interest_from <= $3::date THEN x.interest_from END,
              CASE WHEN x.interest_from <= $3::date THEN $3::date END,
              CASE WHEN x.interest_from <= $3::date THEN ${INTEREST_POINTS} END,
              $2
         FROM invoices i
         JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
         CROSS JOIN LATERAL (
           SELECT ${flat} AS flat, ${flat === 'false' ? 'false' : HAS_FLAT_FEE} AS has_flat,
                  CASE WHEN ${interest} THEN ${INTEREST_FROM} END AS interest_from
         ) x
        WHERE i.company_id = $1 AND i.status = 'ready_for_reminder${stage}' AND NOT ${hasReminder(stage)}
          ${onlyInvoiceIds ? 'AND i.id = ANY($4::uuid[])' : ''}
       RETURNING id, invoice_id, fees::text, default_interest::text, flat_fee::text`,
      [ctx.companyId, ctx.runId, ctx.date, ...(onlyInvoiceIds ? [onlyInvoiceIds] : [])],
    );
    return rows.map((r) => ({ reminderId: r.id, invoiceId: r.invoice_id, stage, fee: r.fees, defaultInterest: r.default_interest, flatFee: r.flat_fee }));
  }

  private async one(m: EntityManager, ctx: RunContext, action: InvoiceAction, condition: string, reason: string): Promise<StepResult> {
    return (await this.move(m, ctx, action, condition, reason))[0];
  }

  // The UPDATE … RETURNING sits in a CTE under a SELECT: TypeORM's query() answers a bare UPDATE with
  // [rows, affected count], a SELECT with the rows. A run only counts (no ids travel); a proposal names them.
  private async move(m: EntityManager, ctx: RunContext, action: InvoiceAction, condition: string, reason: string, hop?: Hop): Promise<StepResult[]> {
    const { from, to } = simpleTransition(action);
    const next = hop ? simpleTransition(hop.action) : undefined;
    if (hop && next?.from !== to) throw new Error(`${hop.action} does not continue ${action}`);
    const target = hop && next ? `CASE WHEN ${hop.condition} THEN '${next.to}' ELSE '${to}' END` : `'${to}'`;
    const hopEvents = hop && next
      ? `UNION ALL SELECT id, '${to}', '${next.to}', $5::text, 2 FROM moved WHERE status = '${next.to}'`
      : '';
    const result = ctx.withIds
      ? `SELECT coalesce(array_agg(id), '{}') AS ids, count(*)::int AS n, coalesce(array_agg(id) FILTER (WHERE status <> '${to}'), '{}') AS hop_ids,
                count(*) FILTER (WHERE status <> '${to}')::int AS hop_n FROM moved`
      : `SELECT '{}'::uuid[] AS ids, count(*)::int AS n, '{}'::uuid[] AS hop_ids, count(*) FILTER (WHERE status <> '${to}')::int AS hop_n FROM moved`;
    const rows: Array<{ ids: string[]; n: number; hop_ids: string[]; hop_n: number }> = await m.query(
      `WITH moved AS (
         UPDATE invoices i SET status = ${target}, updated_at = now()
          WHERE i.company_id = $1 AND i.status = '${from}' AND ${condition}
         RETURNING i.id, i.status
       ), logged AS (
         INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason)
         SELECT $1, id, 'status_changed', from_status, to_status, 'run', $2, reason
           FROM (SELECT id, '${from}'::text AS from_status, '${to}'::text AS to_status, $4::text AS reason, 1 AS hop FROM moved ${hopEvents}) e
          ORDER BY hop
       )
       ${result}`,
      [ctx.companyId, ctx.runId, ctx.date, reason, ...(hop ? [hop.reason] : [])],
    );
    const [r] = rows;
    const first: StepResult = { action, count: r.n, invoiceIds: r.ids };
    return hop ? [first, { action: hop.action, count: r.hop_n, invoiceIds: r.hop_ids }] : [first];
  }
}

/** Numbers spliced into SQL are checked here; everything else travels as parameters. */
function int(value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new Error(`not a day count: ${value}`);
  return value;
}

function money(value: string): string {
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(value)) throw new Error(`not an amount: ${value}`);
  return `${value}::numeric`;
}
