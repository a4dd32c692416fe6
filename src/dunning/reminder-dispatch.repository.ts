// SQL for sending one reminder: the reminder, its invoice locked, and what the send-time checks need.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Invoice } from '../invoices/invoice.entity.js';
import { Reminder } from '../invoices/reminder.entity.js';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';

export interface DispatchSubject {
  reminder: Reminder;
  invoice: Invoice;
  customerStopsReminders: boolean;
  timeZone: string;
}

const SEND_SETTINGS = statement<{ stop: boolean; time_zone: string }>(
  'dunning.reminder_send_settings',
  `SELECT c.stop_automatic_reminders AS stop, co.time_zone
     FROM customers c JOIN companies co ON co.id = c.company_id
    WHERE c.company_id = $1 AND c.id = $2`,
);

@Injectable()
export class ReminderDispatchRepository {
  constructor(private readonly sql: Sql) {}

  async load(m: EntityManager, companyId: string, reminderId: string): Promise<DispatchSubject | undefined> {
    const reminder = await m.findOneBy(Reminder, { companyId, id: reminderId });
    if (!reminder) return undefined;
    const invoice = await m.findOne(Invoice, { where: { companyId, id: reminder.invoiceId }, lock: { mode: 'pessimistic_write' } });
    if (!invoice) return undefined;
    const settings = await this.sql.first(SEND_SETTINGS, [companyId, invoice.customerId], m);
    return { reminder, invoice, customerStopsReminders: settings?.stop ?? false, timeZone: settings?.time_zone ?? 'Europe/Berlin' };
  }

  async markDispatched(m: EntityManager, reminder: Reminder): Promise<void> {
    await m.update(Reminder, { companyId: reminder.companyId, id: reminder.id }, { dispatchedAt: new Date() });
  }

  async cancel(m: EntityManager, reminder: Reminder): Promise<void> {
    await m.delete(Reminder, { companyId: reminder.companyId, id: reminder.id });
  }
}
