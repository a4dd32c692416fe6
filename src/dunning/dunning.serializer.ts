// The wire JSON of dunning policies, runs and proposals.
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import { formatDecimal } from '../common/money.js';
import type { DunningPolicy } from '../companies/dunning-policy.js';
import type { IssuedReminder } from './dunning-run.repository.js';
import type { RunOutcome } from './dunning-run.service.js';
import type { RunRecord } from './dunning-runs.repository.js';

export function serializePolicy(policy: DunningPolicy) {
  return {
    dunning_policy: {
      levels: policy.levels.map((level, i) => ({
        level: i + 1,
        wait_days: level.waitDays,
        fee: formatDecimal(level.fee),
        minimum_open_amount: formatDecimal(level.minimumOpen),
        payment_term_days: level.paymentTermDays,
        text: level.text,
      })),
      grace_days: policy.graceDays,
      collection_days: policy.collectionDays,
      auto_ship: policy.autoShip,
      run_at: policy.runAt,
      waive_remainder: policy.waiveRemainder,
      default_interest: policy.defaultInterest,
      default_starts: policy.defaultStarts,
      business_flat_fee: policy.businessFlatFee,
      send_when_erp_unreachable: policy.sendWhenErpUnreachable,
      proposal_valid_days: policy.proposalValidDays,
    },
  };
}

export function serializeRun(run: RunRecord, timeZone: string) {
  return {
    id: toPublicId('run', run.id),
    business_date: run.businessDate,
    trigger: run.trigger,
    status: run.status,
    started_at: formatDateTime(run.startedAt, timeZone),
    finished_at: formatDateTime(run.finishedAt, timeZone),
    duration_ms: run.durationMs,
    transitions: run.transitions,
    reminders_created: run.remindersCreated,
    fees_planned: formatDecimal(run.feesPlanned),
    errors: run.errors,
  };
}

/** A reminder the run (or an approval) creates: its stage and its charges. */
export function serializeIssued(r: IssuedReminder) {
  return {
    reminder_stage: r.stage,
    fees: formatDecimal(r.fee),
    default_interest: formatDecimal(r.defaultInterest),
    flat_fee: formatDecimal(r.flatFee),
  };
}

export function serializeProposal(date: string, outcome: RunOutcome) {
  return {
    proposal: {
      business_date: date,
      transitions: outcome.steps
        .filter((step) => step.count > 0)
        .map((step) => ({ action: step.action, count: step.count, invoice_ids: step.invoiceIds.map((id) => toPublicId('inv', id)) })),
      reminders: outcome.reminders.map((r) => ({ invoice_id: toPublicId('inv', r.invoiceId), ...serializeIssued(r) })),
    },
  };
}
