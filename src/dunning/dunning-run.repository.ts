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
}

export interface StepResult {
  action: InvoiceAction;
  invoiceIds: string[];
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

/** True when the run must not raise a reminder: the customer stopped them, or the invoice is blocked. */
export const BLOCKED = `(c.stop_automatic_reminders OR (i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $3::date)))`;

/** The date of the invoice's reminder of a stage. */
const reminderDate = (stage: number) =>
  `(SELECT r.reminder_date FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = ${stage})`;

const hasReminder = (stage: number) =>
  `EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = ${stage})`;

@Injectable()
export class DunningRunRepository {
  /** sent → due once the due date plus the grace days has passed. */
  becomeDue(m: EntityManager, ctx: RunContext, graceDays: number) {
    return this.move(m, ctx, 'become_due', `i.due_date + ${int(graceDays)} < $3::date`, 'the due date has passed');
  }

  /** due → ready_for_reminder1 after the level's waiting days, above its minimum, when not blocked. */
  readyForFirst(m: EntityManager, ctx: RunContext, waitDays: number, minimumOpen: string) {
    const condition = `$3::date - i.due_date >= ${int(waitDays)} AND i.open_amount >= ${money(minimumOpen)} AND NOT ${BLOCKED}`;
    return this.move(m, ctx, 'ready_for_reminder1', condition, `${int(waitDays)} days overdue`);
  }

  /** reminderN_sent → ready_for_reminderN+1 after the level's waiting days since reminder N. */
  readyForNext(m: EntityManager, ctx: RunContext, stage: 2 | 3, waitDays: number, minimumOpen: string) {
    const condition = `$3::date - ${reminderDate(stage - 1)} >= ${int(waitDays)} AND i.open_amount >= ${money(minimumOpen)} AND NOT ${BLOCKED}`;
    return this.move(m, ctx, stage === 2 ? 'ready_for_reminder2' : 'ready_for_reminder3', condition, `${int(waitDays)} days since reminder ${stage - 1}`);
  }

  /** reminder3_sent → ready_for_dept_collection after the collection wait (a dunning block holds it too). */
  readyForCollection(m: EntityManager, ctx: RunContext, collectionDays: number) {
    const condition = `$3::date - ${reminderDate(3)} >= ${int(collectionDays)} AND NOT ${BLOCKED}`;
    return this.move(m, ctx, 'ready_for_collection', condition, `${int(collectionDays)} days since reminder 3`);
  }

  /** ready_for_reminderN back to where it was when it became blocked or fell below the minimum before issue. */
  stepBack(m: EntityManager, ctx: RunContext, stage: 1 | 2 | 3, minimumOpen: string) {
    const condition = `NOT ${hasReminder(stage)} AND (${BLOCKED} OR i.open_amount < ${money(minimumOpen)})`;
    return this.move(m, ctx, `step_back${stage}`, condition, 'blocked, or the open amount is below the level minimum');
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

  // The UPDATE … RETURNING sits in a CTE under a SELECT: TypeORM's query() answers a bare UPDATE with
  // [rows, affected count], a SELECT with the rows.
  private async move(m: EntityManager, ctx: RunContext, action: InvoiceAction, condition: string, reason: string): Promise<StepResult> {
    const { from, to } = simpleTransition(action);
    const rows: Array<{ id: string }> = await m.query(
      `WITH moved AS (
         UPDATE invoices i SET status = '${to}', updated_at = now()
           FROM customers c
          WHERE i.company_id = $1 AND i.status = '${from}' AND c.company_id = i.company_id AND c.id = i.customer_id
            AND ${condition}
         RETURNING i.id
       ), logged AS (
         INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason)
         SELECT $1, id, 'status_changed', '${from}', '${to}', 'run', $2, $4 FROM moved
       )
       SELECT id FROM moved`,
      [ctx.companyId, ctx.runId, ctx.date, reason],
    );
    return { action, invoiceIds: rows.map((r) => r.id) };
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
