// A dunning run for one company and business date: all steps in one transaction, recorded with its
// counts. The proposal is the same run rolled back, so it shows exactly what the run would do.
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Decimal } from '../common/money.js';
import { newUuid } from '../common/ids.js';
import { Sql } from '../database/sql/sql.js';
import { InvoicesRepository } from '../invoices/invoices.repository.js';
import type { DunningPolicy } from '../companies/dunning-policy.js';
import { halfYearStart, hasBaseRateFor } from './base-rates.repository.js';
import { DunningPolicyRepository } from '../companies/dunning-policy.repository.js';
import { ErpClearingCheck } from '../erp-pull/clearing/erp-clearing-check.js';
import { DunningRunRepository, type IssuedReminder, type RunContext, type StepResult } from './dunning-run.repository.js';
import { type RunRecord, DunningRunsRepository, type RunTrigger } from './dunning-runs.repository.js';
import { ReminderDispatch } from './reminder-dispatch.service.js';
import { legalDetailsWarnings } from '../shipping/settings/legal-details.js';
import { ShippingSettingsRepository } from '../shipping/settings/shipping-settings.repository.js';

export interface RunOutcome {
  steps: StepResult[];
  reminders: IssuedReminder[];
  /** What the run did but should be looked at (recorded with the run's errors, which keep it succeeded). */
  warnings: string[];
}

/**
 * A proposal: the run rolled back, and what each reminder it leads to would charge. With automatic
 * shipping those are the run's own reminders; in approval mode the run issues none, so the same issuing
 * statement runs for the invoices it made ready (rolled back with the rest), as approving them would.
 */
export interface Proposal extends RunOutcome {
  charges: IssuedReminder[];
}

class RollbackProposal extends Error {
  constructor(readonly outcome: Proposal) {
    super('proposal only');
  }
}

/** A run that would only repeat a recorded run of its date (nothing to do): rolled back, the record answered. */
class RepeatedRun extends Error {
  constructor(readonly existing: RunRecord) {
    super('repeated run');
  }
}

/** A run's record; `repeated`: a run on demand (API or web) for a date that had nothing left to do answers the earlier run of that date. */
export type RunResult = RunRecord & { repeated: boolean };

@Injectable()
export class DunningRunService {
  private readonly logger = new Logger(DunningRunService.name);

  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly sql: DunningRunRepository,
    private readonly runs: DunningRunsRepository,
    private readonly policies: DunningPolicyRepository,
    private readonly dispatch: ReminderDispatch,
    private readonly db: Sql,
    private readonly clearing: ErpClearingCheck,
    private readonly shippingSettings: ShippingSettingsRepository,
  ) {}

  /** Runs and records; undefined when the scheduled run of that date has been done by another replica. */
  async run(companyId: string, date: string, trigger: RunTrigger, notes: string[] = []): Promise<RunResult | undefined> {
    const run = { id: newUuid(), companyId, businessDate: date, trigger, startedAt: new Date() };
    try {
      const started = await this.invoices.transaction(async (m) => {
        if (!(await this.runs.start(m, run))) return false;
        const outcome = await this.steps(m, { companyId, runId: run.id, date });
        if (trigger !== 'schedule' && outcome.reminders.length === 0 && outcome.steps.every((step) => step.count === 0)) {
          const existing = await this.runs.findSucceeded(m, companyId, date);
          if (existing) throw new RepeatedRun(existing);
        }
        await this.runs.finish(m, companyId, run.id, {
          status: 'succeeded',
          durationMs: Date.now() - run.startedAt.getTime(),
          ...summary(outcome),
          errors: [...notes, ...outcome.warnings],
        });
        return true;
      });
      if (!started) return undefined;
    } catch (error) {
      if (error instanceof RepeatedRun) return { ...error.existing, repeated: true };
      this.logger.error({ err: error, companyId, date }, 'dunning run failed');
      await this.runs.recordFailure(run, error instanceof Error ? error.message : String(error), Date.now() - run.startedAt.getTime());
    }
    const record = await this.runs.find(companyId, run.id);
    return record && { ...record, repeated: false };
  }

  /** What a run for that date would do now; nothing is written. */
  async propose(companyId: string, date: string): Promise<Proposal> {
    try {
      await this.invoices.transaction(async (m) => {
        const ctx = { companyId, runId: newUuid(), date, withIds: true };
        const outcome = await this.steps(m, ctx);
        const charges = outcome.reminders.length ? outcome.reminders : await this.wouldCharge(m, ctx);
        throw new RollbackProposal({ ...outcome, charges });
      });
    } catch (error) {
      if (error instanceof RollbackProposal) return error.outcome;
      throw error;
    }
    throw new Error('unreachable');
  }

  /** Issues the approved reminders of the given invoices for the run that proposed them (its id and date) and ships them. */
  async approve(m: EntityManager, ctx: RunContext, invoiceIds: string[]): Promise<IssuedReminder[]> {
    const policy = await this.policies.get(ctx.companyId, m);
    return this.issue(m, ctx, policy, invoiceIds);
  }

  private async steps(m: EntityManager, ctx: RunContext): Promise<RunOutcome> {
    const policy = await this.policies.get(ctx.companyId, m);
    const [level1, level2, level3] = policy.levels;
    const steps: StepResult[] = [];
    // Back out first what no longer qualifies, then move forward one level at most.
    steps.push(await this.sql.stepBack(m, ctx, 1, level1.minimumOpen));
    steps.push(await this.sql.stepBack(m, ctx, 2, level2.minimumOpen));
    steps.push(await this.sql.stepBack(m, ctx, 3, level3.minimumOpen));
    // Invoices due until today go on to ready_for_reminder1 in the same statement when they qualify.
    const [due, dueAndReady] = await this.sql.becomeDue(m, ctx, policy.graceDays, level1.waitDays, level1.minimumOpen);
    const ready = await this.sql.readyForFirst(m, ctx, level1.waitDays, level1.minimumOpen);
    steps.push(due, {
      action: ready.action,
      count: ready.count + dueAndReady.count,
      invoiceIds: [...dueAndReady.invoiceIds, ...ready.invoiceIds],
    });
    steps.push(await this.sql.readyForNext(m, ctx, 2, level2.waitDays, level2.minimumOpen));
    steps.push(await this.sql.readyForNext(m, ctx, 3, level3.waitDays, level3.minimumOpen));
    steps.push(await this.sql.readyForCollection(m, ctx, policy.collectionDays));
    const warnings: string[] = [];
    const reminders = policy.autoShip ? await this.issue(m, ctx, policy, undefined, warnings) : [];
    if (policy.defaultInterest && !(await hasBaseRateFor(this.db, m, ctx.date))) {
      warnings.push(
        `warning: no base rate for ${halfYearStart(ctx.date)} in base_interest_rates, default interest uses the last known one; add it with npm run cli -- base-rate:set`,
      );
    }
    // Reminders without the company's mandatory legal details are sent anyway, but not silently.
    const legal = legalDetailsWarnings(await this.shippingSettings.get(ctx.companyId, m));
    warnings.push(...legal.map((warning) => `warning: ${warning}; set it in the shipping settings`));
    return { steps, reminders, warnings };
  }

  /** The reminders an approval would issue now, charges included; only for a transaction that is rolled back. */
  private async wouldCharge(m: EntityManager, ctx: RunContext): Promise<IssuedReminder[]> {
    const policy = await this.policies.get(ctx.companyId, m);
    const issued: IssuedReminder[] = [];
    for (const stage of [1, 2, 3] as const) {
      const level = policy.levels[stage - 1];
      issued.push(...(await this.sql.issueReminders(m, ctx, stage, level.fee, level.paymentTermDays, policy)));
    }
    return issued;
  }

  private async issue(
    m: EntityManager,
    ctx: RunContext,
    policy: DunningPolicy,
    only?: string[],
    warnings: string[] = [],
  ): Promise<IssuedReminder[]> {
    // ERP-pulled invoices: what the ERP cleared meanwhile is booked and not reminded (erp-pull/clearing).
    const { invoiceIds, warnings: erp } = await this.clearing.beforeIssue(m, ctx.companyId, ctx.runId, only);
    warnings.push(...erp);
    const issued: IssuedReminder[] = [];
    for (const stage of [1, 2, 3] as const) {
      const level = policy.levels[stage - 1];
      issued.push(...(await this.sql.issueReminders(m, ctx, stage, level.fee, level.paymentTermDays, policy, invoiceIds)));
    }
    await this.dispatch.enqueue(m, ctx.companyId, issued);
    return issued;
  }
}

function summary(outcome: RunOutcome): Pick<RunRecord, 'transitions' | 'remindersCreated' | 'feesPlanned'> {
  const transitions: Record<string, number> = {};
  for (const step of outcome.steps) if (step.count) transitions[step.action] = step.count;
  const fees = outcome.reminders.reduce((sum, r) => sum.plus(r.fee).plus(r.flatFee).plus(r.defaultInterest), new Decimal(0));
  return { transitions, remindersCreated: outcome.reminders.length, feesPlanned: fees.toFixed(2) };
}
