// The wire JSON of the dunning approvals (the reminders waiting, what an approval created and stepped
// back, what a rejection stepped back) and of a started dunning run, with their schemas.
import { DunningRunSchema } from '../dunning.serializer.js';
import { toPublicId } from '../../common/ids.js';
import { formatDecimal } from '../../common/money.js';
import { PageMetaSchema } from '../../openapi/pagination.schema.js';
import { booleanProperty, dateProperty, decimalProperty, enumProperty, idProperty, textProperty } from '../../openapi/properties.js';
import { arrayOf, component, type Wire } from '../../openapi/schema.js';
import type { RunResult } from '../dunning-run.service.js';
import type { PageMeta } from '../../common/pagination.js';
import type { ApprovedReminder, SteppedBack, WaitingView } from './approvals.service.js';

const stage = () => enumProperty([1, 2, 3], { description: 'The reminder level' });
const runId = (description: string) =>
  ({ ...idProperty('run', description), nullable: true }) as Omit<ReturnType<typeof idProperty>, 'description'> & {
    readonly description: string;
    readonly nullable: true;
  };

export const WaitingReminderSchema = component(
  'WaitingReminder',
  {
    invoice_id: idProperty('inv', 'The invoice; approve or reject its reminder by this id'),
    invoice_number: textProperty({ nullable: true, example: 'RE-2026-0042' }),
    customer_id: idProperty('cus', 'The invoice’s customer'),
    open_amount: decimalProperty({ description: 'The open amount now' }),
    reminder_stage: stage(),
    fees: decimalProperty({ description: 'The level’s fee the reminder would charge' }),
    flat_fee: decimalProperty({
      description: 'The flat fee of § 288 (5) BGB it would charge (business customers, policy business_flat_fee)',
    }),
    default_interest: decimalProperty({
      description: 'The default interest of § 288 BGB up to its business date (policy default_interest)',
    }),
    dunning_run_id: runId('The run that proposed it (the latest run that found it still qualifying); null: no recorded run'),
    business_date: dateProperty({ nullable: true, description: 'The business date of that run: the reminder’s date when approved' }),
    proposal_expired: booleanProperty({
      description: 'true: older than the policy’s proposal_valid_days; start a dunning run to propose it again before approving',
    }),
  },
  { description: 'A reminder a dunning run proposed that waits for approval (policy auto_ship false)' },
);

export const WaitingReminderListSchema = component('WaitingReminderList', {
  approvals: arrayOf(WaitingReminderSchema),
  meta: PageMetaSchema,
});

export const ApprovedReminderSchema = component(
  'ApprovedReminder',
  {
    id: idProperty('rem', 'The reminder created'),
    invoice_id: idProperty('inv', 'Its invoice'),
    reminder_stage: stage(),
    reminder_date: dateProperty({ description: 'The business date of the run that proposed it; its deadline follows from it' }),
    fees: decimalProperty(),
    default_interest: decimalProperty(),
    flat_fee: decimalProperty(),
    dunning_run_id: idProperty('run', 'The run that proposed it'),
  },
  { description: 'A reminder created by the approval; it is sent in the background' },
);

export const SteppedBackSchema = component(
  'SteppedBackReminder',
  {
    invoice_id: idProperty('inv', 'The invoice'),
    reminder_stage: stage(),
    reason: textProperty({ example: 'dunning block: Reklamation', description: 'Why no reminder was created' }),
  },
  { description: 'A waiting reminder not created: its invoice stepped back to the status before the proposal' },
);

export const ApprovalResultSchema = component('ApprovalResult', {
  reminders: arrayOf(ApprovedReminderSchema, { description: 'Exactly the reminders created' }),
  stepped_back: arrayOf(SteppedBackSchema, {
    description: 'Named (or waiting) reminders that no longer pass the send-time guards (block, stop_automatic_reminders, minimum)',
  }),
});

export const RejectionResultSchema = component('RejectionResult', {
  rejected: arrayOf(SteppedBackSchema, { description: 'The rejected reminders; their invoices stepped back' }),
});

export const StartedRunSchema = component('StartedDunningRun', {
  dunning_run: DunningRunSchema,
  repeated: booleanProperty({
    description: 'true (status 200): the date had been run and nothing was left to do; the earlier run is answered, none is stored',
  }),
});

export function serializeWaiting(items: WaitingView[], meta: PageMeta): Wire<typeof WaitingReminderListSchema> {
  return {
    approvals: items.map((w) => ({
      invoice_id: toPublicId('inv', w.invoiceId),
      invoice_number: w.invoiceNumber,
      customer_id: toPublicId('cus', w.customerId),
      open_amount: formatDecimal(w.openAmount),
      reminder_stage: w.stage,
      fees: formatDecimal(w.charges?.fee ?? '0'),
      flat_fee: formatDecimal(w.charges?.flatFee ?? '0'),
      default_interest: formatDecimal(w.charges?.defaultInterest ?? '0'),
      dunning_run_id: w.runId && toPublicId('run', w.runId),
      business_date: w.businessDate,
      proposal_expired: w.expired,
    })),
    meta,
  };
}

const stepped = (s: SteppedBack) => ({
  invoice_id: toPublicId('inv', s.invoiceId),
  reminder_stage: s.stage as 1 | 2 | 3,
  reason: s.reason,
});

export function serializeApproval(approved: ApprovedReminder[], steppedBack: SteppedBack[]): Wire<typeof ApprovalResultSchema> {
  return {
    reminders: approved.map((r) => ({
      id: toPublicId('rem', r.reminderId),
      invoice_id: toPublicId('inv', r.invoiceId),
      reminder_stage: r.stage as 1 | 2 | 3,
      reminder_date: r.businessDate,
      fees: formatDecimal(r.fee),
      default_interest: formatDecimal(r.defaultInterest),
      flat_fee: formatDecimal(r.flatFee),
      dunning_run_id: toPublicId('run', r.runId),
    })),
    stepped_back: steppedBack.map(stepped),
  };
}

export function serializeRejection(rejected: SteppedBack[]): Wire<typeof RejectionResultSchema> {
  return { rejected: rejected.map(stepped) };
}

export function serializeStartedRun(run: RunResult, wire: Wire<typeof DunningRunSchema>): Wire<typeof StartedRunSchema> {
  return { dunning_run: wire, repeated: run.repeated };
}
