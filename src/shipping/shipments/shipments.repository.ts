// Shipments, their deliveries and the reminder fields shipping owns (last_sent_at, shipping_mode), through
// the statements of shipments.statements.ts and TypeORM's single-row calls. Every method takes the company id.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Contact } from '../../contacts/contact.entity.js';
import type { PageRequest } from '../../common/pagination.js';
import { Sql } from '../../database/sql/sql.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import { Reminder } from '../../invoices/reminder.entity.js';
import type { Channel } from '../routing/shipping-mode.js';
import type { Delivery, Shipment } from './shipment.js';
import {
  ATTACH_RENDERED_INVOICE_PDF,
  ATTENTION_COUNT,
  ATTENTION_PAGE,
  CONTACTS_WITH_EMAIL,
  DELIVERIES_OF_INVOICE,
  DELIVERY_COLUMNS,
  INSERT_DELIVERY,
  INSERT_SHIPMENT,
  LATEST_SHIPMENT,
  LOCK_SHIPMENT,
  MARK_REMINDER_SHIPPED,
  NEXT_ATTEMPT,
  SET_REMINDER_MODE,
  SHIPMENT_COLUMNS,
  type ShipmentChange,
  SHIPMENTS_OF_INVOICE,
  STALLED_CHANNELS,
  UPDATE_SHIPMENT,
} from './shipments.statements.js';

export interface AttentionFilter {
  invoiceId?: string;
  document?: 'invoice' | 'reminder';
}

import type { StalledChannel } from './shipment.js';

export type { StalledChannel };

const SHIPMENT_FIELDS = Object.keys(SHIPMENT_COLUMNS) as Array<keyof Shipment>;
const DELIVERY_FIELDS = Object.keys(DELIVERY_COLUMNS) as Array<keyof Delivery>;

@Injectable()
export class ShipmentsRepository {
  constructor(private readonly sql: Sql) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  async insertShipment(shipment: Shipment, manager: EntityManager): Promise<Shipment> {
    await this.sql.run(
      INSERT_SHIPMENT,
      SHIPMENT_FIELDS.map((k) => shipment[k]),
      manager,
    );
    return shipment;
  }

  async updateShipment(shipment: Shipment, changes: Partial<Shipment>, manager: EntityManager): Promise<Shipment> {
    const updated: Shipment = { ...shipment, ...changes, updatedAt: new Date() };
    // In the columns' order, so that the same fields always make the same statement.
    const fields = SHIPMENT_FIELDS.filter((k): k is ShipmentChange => k in changes && k !== 'companyId' && k !== 'id' && k !== 'updatedAt');
    await this.sql.run(
      UPDATE_SHIPMENT(fields),
      [shipment.companyId, shipment.id, ...fields.map((k) => updated[k]), updated.updatedAt],
      manager,
    );
    return updated;
  }

  /** Reads the shipment and locks it until the transaction ends: the channels of a dual shipment finish one after the other. */
  async lockShipment(companyId: string, id: string, manager: EntityManager): Promise<Shipment | null> {
    return (await this.sql.first(LOCK_SHIPMENT, [companyId, id], manager)) ?? null;
  }

  /** The newest shipment of a document (the invoice itself when reminderId is null), whatever its status. */
  async latestShipment(companyId: string, invoiceId: string, reminderId: string | null, manager?: EntityManager): Promise<Shipment | null> {
    return (await this.sql.first(LATEST_SHIPMENT, [companyId, invoiceId, reminderId], manager)) ?? null;
  }

  shipmentsOf(companyId: string, invoiceId: string): Promise<Shipment[]> {
    return this.sql.rows(SHIPMENTS_OF_INVOICE, [companyId, invoiceId]);
  }

  /**
   * Shipments someone has to act on: nothing went out (failed, or could not start), and it is still the
   * newest shipment of its document (shipping the document again settles the flag). A shipment that
   * went out on one channel keeps its note in `attention` and in the invoice's events, not here.
   */
  async needingAttention(companyId: string, filter: AttentionFilter, page: PageRequest): Promise<{ shipments: Shipment[]; total: number }> {
    const params = [companyId, filter.invoiceId ?? null, filter.document ?? null];
    const [shipments, counted] = await Promise.all([
      this.sql.rows(ATTENTION_PAGE, [...params, page.perPage, page.offset]),
      this.sql.one(ATTENTION_COUNT, params),
    ]);
    return { shipments, total: counted.total };
  }

  /**
   * Channels still waiting for an outcome although no job will bring one: the shipment is pending, the
   * channel has been quiet for `quietSeconds`, and its queue holds no live job (created, retry, active
   * and not yet failed over by maintenance, which runs every `maintenance.intervalSeconds` on a supervising
   * process, this one since `maintenance.since`) for it — it was dead-lettered, or lost with its process on
   * the last attempt, or maintenance has stopped. Across companies: the
   * sweep is the service's own housekeeping, not a tenant's lookup. Reads pg-boss's job table (the
   * same database), with the last error the queue kept for the job.
   */
  stalledChannels(
    queues: Record<Channel, string>,
    quietSeconds: number,
    limit: number,
    maintenance: { intervalSeconds: number; since: Date },
  ): Promise<StalledChannel[]> {
    return this.sql.rows(STALLED_CHANNELS, [
      queues.email,
      queues.post,
      quietSeconds,
      limit,
      maintenance.intervalSeconds,
      maintenance.since,
    ]);
  }

  async insertDelivery(delivery: Delivery, manager: EntityManager): Promise<Delivery> {
    await this.sql.run(
      INSERT_DELIVERY,
      DELIVERY_FIELDS.map((k) => delivery[k]),
      manager,
    );
    return delivery;
  }

  /** The number the next attempt on this channel gets (1 for the first). */
  async nextAttempt(companyId: string, shipmentId: string, channel: string, manager: EntityManager): Promise<number> {
    return (await this.sql.one(NEXT_ATTEMPT, [companyId, shipmentId, channel], manager)).n + 1;
  }

  deliveriesOf(companyId: string, invoiceId: string): Promise<Delivery[]> {
    return this.sql.rows(DELIVERIES_OF_INVOICE, [companyId, invoiceId]);
  }

  /** Contacts of a customer with an e-mail address, oldest first, as the transaction sees them. */
  contactsWithEmail(companyId: string, customerId: string, manager: EntityManager): Promise<Contact[]> {
    return this.sql.rows(CONTACTS_WITH_EMAIL, [companyId, customerId], manager);
  }

  findReminder(companyId: string, invoiceId: string, id: string, manager: EntityManager = this.sql.manager): Promise<Reminder | null> {
    return manager.findOneBy(Reminder, { companyId, invoiceId, id });
  }

  lockReminder(companyId: string, id: string, manager: EntityManager): Promise<Reminder | null> {
    return manager.findOne(Reminder, { where: { companyId, id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Shipping's part of a reminder: when it went out, and the mode it went out by. */
  async markReminderShipped(reminder: Reminder, sentAt: Date, manager: EntityManager): Promise<void> {
    await this.sql.run(MARK_REMINDER_SHIPPED, [reminder.companyId, reminder.id, sentAt], manager);
  }

  /** An invoice without a PDF of its own gets the one the service rendered when shipping it (never replacing one). */
  async attachRenderedInvoicePdf(
    invoice: Invoice,
    file: { key: string; size: number; sha256: Buffer },
    manager: EntityManager,
  ): Promise<void> {
    await this.sql.run(ATTACH_RENDERED_INVOICE_PDF, [invoice.companyId, invoice.id, file.key, file.size, file.sha256], manager);
  }

  async setReminderMode(reminder: Reminder, mode: string, manager: EntityManager): Promise<void> {
    await this.sql.run(SET_REMINDER_MODE, [reminder.companyId, reminder.id, mode], manager);
  }
}
