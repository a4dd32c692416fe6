// The wire JSON of dunning policies, runs and proposals, with their schemas.
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import { formatDecimal } from '../common/money.js';
import { DEFAULT_STARTS, type DunningPolicy } from '../companies/dunning-policy.js';
import { PageMetaSchema } from '../openapi/pagination.schema.js';
import {
  booleanProperty,
  dateProperty,
  dateTimeProperty,
  decimalProperty,
  enumProperty,
  freeObjectProperty,
  idProperty,
  integerProperty,
  textProperty,
} from '../openapi/properties.js';
import { arrayOf, component, type Wire } from '../openapi/schema.js';
import type { IssuedReminder } from './dunning-run.repository.js';
import type { RunOutcome } from './dunning-run.service.js';
import type { RunRecord } from './dunning-runs.repository.js';

export const DunningLevelSchema = component('DunningLevel', {
  level: integerProperty({ minimum: 1, maximum: 3 }),
  wait_days: integerProperty({
    minimum: 0,
    description: 'Level 1: days after the due date (plus grace); levels 2–3: after the previous reminder',
  }),
  fee: decimalProperty({ description: 'Fixed fee of the reminder' }),
  minimum_open_amount: decimalProperty({ description: 'Below this open amount the level is not reached' }),
  payment_term_days: integerProperty({ minimum: 0, description: 'Days the reminder gives the customer to pay' }),
  text: textProperty({ description: 'The reminder text with its {placeholders}' }),
});

export const DunningPolicySchema = component('DunningPolicy', {
  levels: arrayOf(DunningLevelSchema, { description: 'Reminders 1 to 3' }),
  grace_days: integerProperty({ minimum: 0 }),
  collection_days: integerProperty({ minimum: 0, description: 'Days after reminder 3 until the invoice is ready for debt collection' }),
  auto_ship: booleanProperty({ description: 'false: reminders wait for approval' }),
  run_at: textProperty({ pattern: '^\\d{2}:\\d{2}$', example: '06:00', description: 'Local time of the daily run (HH:MM)' }),
  waive_remainder: booleanProperty({
    description:
      'Settles an invoice whose open amount is a remainder of principal no larger than the unpaid fees, flat fee and interest (§ 367 BGB)',
  }),
  default_interest: booleanProperty({ description: 'BGB § 288 default interest on reminders' }),
  default_starts: enumProperty(DEFAULT_STARTS, {
    description: 'When default (§ 286 BGB) starts: after reminder 1’s deadline, or for businesses also 30 days after the due date',
  }),
  business_flat_fee: booleanProperty({ description: 'BGB § 288 (5) flat fee of 40 EUR for businesses' }),
  send_when_erp_unreachable: booleanProperty({
    description: 'true: reminders of ERP invoices go out when the ERP cannot be asked whether it cleared them',
  }),
  proposal_valid_days: integerProperty({ minimum: 0, description: 'Days after its run a proposed reminder may still be approved' }),
});

export const DunningPolicyResponseSchema = component('DunningPolicyResponse', { dunning_policy: DunningPolicySchema });

export const DunningRunSchema = component('DunningRun', {
  id: idProperty('run', 'Service id of the run'),
  business_date: dateProperty(),
  trigger: enumProperty(['api', 'schedule', 'web']),
  status: enumProperty(['running', 'succeeded', 'failed']),
  started_at: dateTimeProperty(),
  finished_at: dateTimeProperty({ nullable: true }),
  duration_ms: integerProperty({ nullable: true, minimum: 0 }),
  transitions: freeObjectProperty({ description: 'Invoices moved, by action: `{"remind_1": 3}`' }),
  reminders_created: integerProperty({ minimum: 0 }),
  fees_planned: decimalProperty(),
  errors: arrayOf(textProperty()),
});

export const DunningRunResponseSchema = component('DunningRunResponse', { dunning_run: DunningRunSchema });
export const DunningRunListSchema = component('DunningRunList', { dunning_runs: arrayOf(DunningRunSchema), meta: PageMetaSchema });

const ISSUED_PROPERTIES = {
  reminder_stage: integerProperty({ minimum: 1, maximum: 3 }),
  fees: decimalProperty(),
  default_interest: decimalProperty(),
  flat_fee: decimalProperty(),
} as const;

export const ProposedReminderSchema = component('ProposedReminder', {
  invoice_id: idProperty('inv', 'The invoice'),
  ...ISSUED_PROPERTIES,
});

export const DunningProposalSchema = component('DunningProposal', {
  proposal: component('Proposal', {
    business_date: dateProperty(),
    transitions: arrayOf(
      component('ProposedTransition', {
        action: textProperty({ example: 'remind_1' }),
        count: integerProperty({ minimum: 1 }),
        invoice_ids: arrayOf(idProperty('inv', 'An invoice the action moves')),
      }),
    ),
    reminders: arrayOf(ProposedReminderSchema),
  }),
});

export function serializePolicy(policy: DunningPolicy): Wire<typeof DunningPolicyResponseSchema> {
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

export function serializeRun(run: RunRecord, timeZone: string): Wire<typeof DunningRunSchema> {
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
export function serializeIssued(r: IssuedReminder): Omit<Wire<typeof ProposedReminderSchema>, 'invoice_id'> {
  return {
    reminder_stage: r.stage,
    fees: formatDecimal(r.fee),
    default_interest: formatDecimal(r.defaultInterest),
    flat_fee: formatDecimal(r.flatFee),
  };
}

export function serializeProposal(date: string, outcome: RunOutcome): Wire<typeof DunningProposalSchema> {
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
