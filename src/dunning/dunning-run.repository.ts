// The set-based SQL of a dunning run: each step moves all matching invoices of one company at once and
// writes their events in the same statement. Which invoices qualify is the run's (the conditions here);
// what a move writes is the ledger's (setBasedMoveSql, from the transition table), declared under the
// ledger's name. Sent unnamed, planned with the run's values: the run touches a status's invoices once a day.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../database/sql/sql.js';
import { statementFamily } from '../database/sql/statement.js';
import type { InvoiceAction } from '../invoices/invoice-status.js';
import { type SetBasedMove, type SetBasedMoveRow, setBasedMoveSql } from '../invoices/ledger/set-based-status.js';
import { InterestLines } from '../invoices/interest/interest-lines.repository.js';
import { DEFAULT_SINCE, FLAT_FEE, HAS_FLAT_FEE, INTEREST_FROM, INTEREST_POINTS } from './default-interest.sql.js';

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

/** A step: the move and its reasons (the hop's, when some invoices go on one transition further at once). */
interface Step {
  move: Omit<SetBasedMove, 'withIds'>;
  reason: string;
  hopReason?: string;
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

/** The run's steps as moves (pure: the statement family's examples are built by them too). */
const steps = {
  /**
   * sent → due once the due date plus the grace days has passed, and on to ready_for_reminder1 in the
   * same statement when level 1 is reached too (one row version and two events instead of two updates).
   */
  becomeDue(graceDays: number, waitDays: number, minimumOpen: string): Step {
    const first = steps.readyForFirst(waitDays, minimumOpen);
    const hop = { action: first.move.action, condition: first.move.condition };
    return {
      move: { action: 'become_due', condition: `i.due_date + ${int(graceDays)} < $3::date`, hop },
      reason: 'the due date has passed',
      hopReason: first.reason,
    };
  },
  /** due → ready_for_reminder1 after the level's waiting days, above its minimum, when not blocked. */
  readyForFirst(waitDays: number, minimumOpen: string): Step {
    const condition = `$3::date - i.due_date >= ${int(waitDays)} AND i.open_amount >= ${money(minimumOpen)} AND NOT ${BLOCKED}`;
    return { move: { action: 'ready_for_reminder1', condition }, reason: `${int(waitDays)} days overdue` };
  },
  /** reminderN_sent → ready_for_reminderN+1 after the level's waiting days since reminder N. */
  readyForNext(stage: 2 | 3, waitDays: number, minimumOpen: string): Step {
    const condition = `$3::date - ${reminderDate(stage - 1)} >= ${int(waitDays)} AND i.open_amount >= ${money(minimumOpen)} AND NOT ${BLOCKED}`;
    return {
      move: { action: stage === 2 ? 'ready_for_reminder2' : 'ready_for_reminder3', condition },
      reason: `${int(waitDays)} days since reminder ${stage - 1}`,
    };
  },
  /** reminder3_sent → ready_for_dept_collection after the collection wait (a dunning block holds it too). */
  readyForCollection(collectionDays: number): Step {
    const condition = `$3::date - ${reminderDate(3)} >= ${int(collectionDays)} AND NOT ${BLOCKED}`;
    return { move: { action: 'ready_for_collection', condition }, reason: `${int(collectionDays)} days since reminder 3` };
  },
  /** ready_for_reminderN back to where it was when it became blocked or fell below the minimum before issue. */
  stepBack(stage: 1 | 2 | 3, minimumOpen: string): Step {
    const condition = `NOT ${hasReminder(stage)} AND (${BLOCKED} OR i.open_amount < ${money(minimumOpen)})`;
    return { move: { action: `step_back${stage}`, condition }, reason: 'blocked, or the open amount is below the level minimum' };
  },
};

const MOVE = statementFamily<SetBasedMove, SetBasedMoveRow>(
  'ledger.dunning_move',
  setBasedMoveSql,
  [
    { ...steps.becomeDue(0, 14, '0.00').move, withIds: false },
    { ...steps.becomeDue(0, 14, '0.00').move, withIds: true },
    { ...steps.readyForNext(2, 14, '5.00').move, withIds: false },
    { ...steps.readyForCollection(14).move, withIds: false },
    { ...steps.stepBack(1, '5.00').move, withIds: false },
  ],
  { plan: 'custom' },
);

type IssueVariant = { stage: 1 | 2 | 3; fee: string; payDays: number; flat: boolean; interest: boolean; only: boolean };
/**
 * The missing reminders of every invoice ready for reminder N (restricted to some invoices, if given),
 * with their charges as separate columns (see issueReminders) and their deadline (pay_by). The interest
 * period is set here; its amount comes from the interest lines (InterestLines.chargeReminders).
 */
const ISSUE = statementFamily<IssueVariant, { id: string; invoice_id: string; fees: string; default_interest: string; flat_fee: string }>(
  'dunning.issue_reminders',
  (v) => {
    // § 288 (5) BGB: the flat fee is owed once the customer is in default (§ 286).
    const flat = v.flat
      ? `NOT i.ignore_reminder_fees AND c.customer_type = 'business' AND coalesce(${DEFAULT_SINCE} <= $3::date, false)`
      : 'false';
    const interest = v.interest ? `NOT i.ignore_reminder_fees` : 'false';
    return `INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, shipping_mode, fees, flat_fee,
                              default_interest, interest_from, interest_until, interest_points, run_id, pay_by)
       SELECT i.company_id, gen_random_uuid(), i.id, ${v.stage}, $3::date, i.shipping_mode,
              CASE WHEN i.ignore_reminder_fees OR (x.flat AND (x.has_flat OR i.reminder_fees < ${FLAT_FEE})) THEN 0 ELSE ${money(v.fee)} END,
              CASE WHEN x.flat AND NOT x.has_flat THEN greatest(0, ${FLAT_FEE} - i.reminder_fees) ELSE 0 END,
              0,
              CASE WHEN x.interest_from <= $3::date THEN x.interest_from END,
              CASE WHEN x.interest_from <= $3::date THEN $3::date END,
              CASE WHEN x.interest_from <= $3::date THEN ${INTEREST_POINTS} END,
              $2, $3::date + ${int(v.payDays)}
         FROM invoices i
         JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
         CROSS JOIN LATERAL (
           SELECT ${flat} AS flat, ${flat === 'false' ? 'false' : HAS_FLAT_FEE} AS has_flat,
                  CASE WHEN ${interest} THEN ${INTEREST_FROM} END AS interest_from
         ) x
        WHERE i.company_id = $1 AND i.status = 'ready_for_reminder${v.stage}' AND NOT ${hasReminder(v.stage)}
          ${v.only ? 'AND i.id = ANY($4::uuid[])' : ''}
       RETURNING id, invoice_id, fees::text, default_interest::text, flat_fee::text`;
  },
  [
    { stage: 1, fee: '5.00', payDays: 7, flat: false, interest: false, only: false },
    { stage: 2, fee: '5.00', payDays: 7, flat: true, interest: true, only: true },
  ],
  { plan: 'custom' },
);

@Injectable()
export class DunningRunRepository {
  constructor(
    private readonly sql: Sql,
    private readonly interest: InterestLines,
  ) {}

  async becomeDue(m: EntityManager, ctx: RunContext, graceDays: number, waitDays: number, minimumOpen: string): Promise<StepResult[]> {
    return this.move(m, ctx, steps.becomeDue(graceDays, waitDays, minimumOpen));
  }

  async readyForFirst(m: EntityManager, ctx: RunContext, waitDays: number, minimumOpen: string): Promise<StepResult> {
    return (await this.move(m, ctx, steps.readyForFirst(waitDays, minimumOpen)))[0];
  }

  async readyForNext(m: EntityManager, ctx: RunContext, stage: 2 | 3, waitDays: number, minimumOpen: string): Promise<StepResult> {
    return (await this.move(m, ctx, steps.readyForNext(stage, waitDays, minimumOpen)))[0];
  }

  async readyForCollection(m: EntityManager, ctx: RunContext, collectionDays: number): Promise<StepResult> {
    return (await this.move(m, ctx, steps.readyForCollection(collectionDays)))[0];
  }

  async stepBack(m: EntityManager, ctx: RunContext, stage: 1 | 2 | 3, minimumOpen: string): Promise<StepResult> {
    return (await this.move(m, ctx, steps.stepBack(stage, minimumOpen)))[0];
  }

  /**
   * Creates the missing reminder of every invoice ready for reminder N (restricted to some invoices, if
   * given), with its charges as separate columns: the level's fee, and from reminder 2 on, if the policy
   * says so, BGB § 288 default interest and the flat fee (against which the fees are credited, § 288 (5)
   * sentence 3). ignore_reminder_fees charges nothing at all.
   */
  async issueReminders(
    m: EntityManager,
    ctx: RunContext,
    stage: 1 | 2 | 3,
    fee: string,
    payDays: number,
    charges: ChargeSettings,
    onlyInvoiceIds?: string[],
  ): Promise<IssuedReminder[]> {
    const variant = {
      stage,
      fee,
      payDays,
      flat: stage >= 2 && charges.businessFlatFee,
      interest: stage >= 2 && charges.defaultInterest,
      only: !!onlyInvoiceIds,
    };
    const rows = await this.sql.rows(ISSUE(variant), [ctx.companyId, ctx.runId, ctx.date, ...(onlyInvoiceIds ? [onlyInvoiceIds] : [])], m);
    const interest = variant.interest
      ? await this.interest.chargeReminders(
          m,
          ctx.companyId,
          rows.map((r) => r.id),
        )
      : new Map<string, string>();
    return rows.map((r) => ({
      reminderId: r.id,
      invoiceId: r.invoice_id,
      stage,
      fee: r.fees,
      defaultInterest: interest.get(r.id) ?? r.default_interest,
      flatFee: r.flat_fee,
    }));
  }

  /** A run only counts (no ids travel); a proposal names them. */
  private async move(m: EntityManager, ctx: RunContext, { move, reason, hopReason }: Step): Promise<StepResult[]> {
    const statement = MOVE({ ...move, withIds: !!ctx.withIds });
    const r = await this.sql.one(statement, [ctx.companyId, ctx.runId, ctx.date, reason, ...(move.hop ? [hopReason] : [])], m);
    const first: StepResult = { action: move.action, count: r.n, invoiceIds: r.ids };
    return move.hop ? [first, { action: move.hop.action, count: r.hop_n, invoiceIds: r.hop_ids }] : [first];
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
