// Sending an issued reminder: a durable job per reminder. At send time every guard is checked again
// (a payment, a block or a lower open amount since the run cancels the reminder); only then is its fee
// booked and the reminder handed to shipping, which marks it sent once delivered.
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { todayIn } from '../common/calendar-date.js';
import { toPublicId } from '../common/ids.js';
import { Decimal, formatDecimal } from '../common/money.js';
import { InterestCharges } from '../invoices/interest/interest-charges.js';
import { InvoiceLedger } from '../invoices/ledger/invoice-ledger.js';
import { InvoiceTransitions } from '../invoices/ledger/invoice-transitions.js';
import { type Actor, InvoicesRepository } from '../invoices/invoices.repository.js';
import { JobQueue } from '../jobs/job-queue.js';
import { ShippingService } from '../shipping/shipments/shipping.service.js';
import { DunningPolicyRepository } from '../companies/dunning-policy.repository.js';
import { ErpClearingCheck } from '../erp-pull/clearing/erp-clearing-check.js';
import type { IssuedReminder } from './dunning-run.repository.js';
import { type DispatchSubject, ReminderDispatchRepository } from './reminder-dispatch.repository.js';

export const REMINDER_QUEUE = 'dunning.reminder';

interface ReminderJob {
  companyId: string;
  reminderId: string;
  runId: string | null;
}

@Injectable()
export class ReminderDispatch implements OnApplicationBootstrap {
  constructor(
    private readonly queue: JobQueue,
    private readonly reminders: ReminderDispatchRepository,
    private readonly invoices: InvoicesRepository,
    private readonly transitions: InvoiceTransitions,
    private readonly ledger: InvoiceLedger,
    private readonly policies: DunningPolicyRepository,
    private readonly shipping: ShippingService,
    private readonly clearing: ErpClearingCheck,
    private readonly interest: InterestCharges,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.define({ name: REMINDER_QUEUE, retryLimit: 3, retryDelaySeconds: 30, deadLetter: `${REMINDER_QUEUE}.dead` });
    await this.queue.work<ReminderJob>(REMINDER_QUEUE, (job) => this.send(job.data), { batchSize: 20, pollingIntervalSeconds: 0.5 });
  }

  /** Enqueued in the run's transaction: committed together with the reminders, or not at all. */
  async enqueue(m: EntityManager, companyId: string, issued: IssuedReminder[]): Promise<void> {
    const jobs = issued.map((r) => ({ companyId, reminderId: r.reminderId, runId: null }));
    await this.queue.sendMany<ReminderJob>(REMINDER_QUEUE, jobs, m);
  }

  async send(job: ReminderJob): Promise<void> {
    // An ERP-pulled invoice: the ERP is asked before the transaction, so no row stays locked meanwhile.
    const erp = await this.clearing.askBeforeShipping(job.companyId, job.reminderId);
    await this.invoices.transaction(async (m) => {
      const when = 'before its reminder was shipped';
      const { refusals } = await this.clearing.settle(m, job.companyId, erp, toPublicId('rem', job.reminderId), when);
      const subject = await this.reminders.load(m, job.companyId, job.reminderId);
      if (!subject || subject.reminder.dispatchedAt) return; // cancelled, or a retry after success
      const actor: Actor = { type: 'run', id: subject.reminder.runId };
      const refusal = refusals.get(subject.invoice.id) ?? (await this.refusal(m, subject));
      if (refusal) return this.cancel(m, subject, actor, refusal);
      const { invoice, reminder } = subject;
      const charged = await this.ledger.charge(
        invoice,
        { reminderFees: reminder.fees, flatFee: reminder.flatFee, defaultInterest: reminder.defaultInterest },
        m,
      );
      await this.reminders.markDispatched(m, reminder);
      // A payment booked back-dated between the run and now: its days' interest is corrected at once.
      await this.interest.correct(m, charged, actor);
      const details = {
        reminder_id: toPublicId('rem', reminder.id),
        stage: reminder.reminderStage,
        fee: formatDecimal(reminder.fees),
        flat_fee: formatDecimal(reminder.flatFee),
        default_interest: formatDecimal(reminder.defaultInterest),
      };
      await this.invoices.addEvent(invoice, actor, { kind: 'reminder_issued', details }, m);
      await this.shipping.shipReminder(m, job.companyId, reminder.id, actor);
    });
  }

  /** Why the reminder must not go out now, or undefined when it may. */
  private async refusal(
    m: EntityManager,
    { invoice, reminder, customerStopsReminders, timeZone }: DispatchSubject,
  ): Promise<string | undefined> {
    if (invoice.status !== `ready_for_reminder${reminder.reminderStage}`) return `the invoice is ${invoice.status} now`;
    const today = todayIn(timeZone);
    if (customerStopsReminders) return 'the customer has stop_automatic_reminders';
    if (invoice.dunningBlockReason && (!invoice.dunningBlockUntil || invoice.dunningBlockUntil >= today))
      return `dunning block: ${invoice.dunningBlockReason}`;
    const level = (await this.policies.get(invoice.companyId, m)).levels[reminder.reminderStage - 1];
    if (new Decimal(invoice.openAmount).lessThan(level.minimumOpen)) return `the open amount is below ${level.minimumOpen}`;
    return undefined;
  }

  private async cancel(m: EntityManager, { invoice, reminder }: DispatchSubject, actor: Actor, reason: string): Promise<void> {
    await this.reminders.cancel(m, reminder);
    await this.invoices.addEvent(invoice, actor, { kind: 'reminder_cancelled', reason, details: { stage: reminder.reminderStage } }, m);
    const stepBack = `step_back${reminder.reminderStage}` as 'step_back1' | 'step_back2' | 'step_back3';
    if (invoice.status === `ready_for_reminder${reminder.reminderStage}`) await this.transitions.apply(m, invoice, stepBack, actor, reason);
  }
}
