// SQL for shipments, their deliveries and the reminder fields shipping owns (last_sent_at, shipping_mode).
// Every method takes the company id.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Contact } from '../../contacts/contact.entity.js';
import type { PageRequest } from '../../common/pagination.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import { Reminder } from '../../invoices/reminder.entity.js';
import type { Delivery, Shipment } from './shipment.js';
import type { Channel } from '../routing/shipping-mode.js';

export interface AttentionFilter {
  invoiceId?: string;
  document?: 'invoice' | 'reminder';
}

export interface StalledChannel {
  companyId: string;
  shipmentId: string;
  channel: Channel;
  lastError: string | null;
}

const SHIPMENT_COLUMNS: Record<keyof Shipment, string> = {
  companyId: 'company_id',
  id: 'id',
  invoiceId: 'invoice_id',
  reminderId: 'reminder_id',
  document: 'document',
  shippingMode: 'shipping_mode',
  modeSource: 'mode_source',
  status: 'status',
  emailStatus: 'email_status',
  postStatus: 'post_status',
  attention: 'attention',
  messageId: 'message_id',
  letterKey: 'letter_key',
  printDay: 'print_day',
  actorType: 'actor_type',
  actorId: 'actor_id',
  reason: 'reason',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  completedAt: 'completed_at',
};

const DELIVERY_COLUMNS: Record<keyof Delivery, string> = {
  companyId: 'company_id',
  id: 'id',
  shipmentId: 'shipment_id',
  invoiceId: 'invoice_id',
  reminderId: 'reminder_id',
  channel: 'channel',
  attempt: 'attempt',
  recipient: 'recipient',
  outcome: 'outcome',
  provider: 'provider',
  providerId: 'provider_id',
  messageId: 'message_id',
  error: 'error',
  createdAt: 'created_at',
};

const select = (columns: Record<string, string>, alias = '') =>
  Object.entries(columns)
    .map(([field, column]) => `${alias}${column} AS "${field}"`)
    .join(', ');

const SHIPMENT = select(SHIPMENT_COLUMNS);
const DELIVERY = select(DELIVERY_COLUMNS);

/** A row with its columns in order, for an INSERT of every field. */
function insertParts<T extends object>(columns: Record<keyof T, string>, values: T) {
  const keys = Object.keys(columns) as Array<keyof T>;
  return { names: keys.map((k) => columns[k]).join(', '), params: keys.map((_, i) => `$${i + 1}`).join(', '), values: keys.map((k) => values[k]) };
}

@Injectable()
export class ShipmentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insertShipment(shipment: Shipment, manager: EntityManager): Promise<Shipment> {
    const { names, params, values } = insertParts(SHIPMENT_COLUMNS, shipment);
    await manager.query(`INSERT INTO shipments (${names}) VALUES (${params})`, values);
    return shipment;
  }

  async updateShipment(shipment: Shipment, changes: Partial<Shipment>, manager: EntityManager): Promise<Shipment> {
    const updated: Shipment = { ...shipment, ...changes, updatedAt: new Date() };
    const keys = (Object.keys(changes) as Array<keyof Shipment>).filter((k) => k !== 'companyId' && k !== 'id');
    const sets = [...keys.map((k, i) => `${SHIPMENT_COLUMNS[k]} = $${i + 3}`), `updated_at = $${keys.length + 3}`];
    await manager.query(`UPDATE shipments SET ${sets.join(', ')} WHERE company_id = $1 AND id = $2`, [
      shipment.companyId,
      shipment.id,
      ...keys.map((k) => updated[k]),
      updated.updatedAt,
    ]);
    return updated;
  }

  /** Reads the shipment and locks it until the transaction ends: the channels of a dual shipment finish one after the other. */
  async lockShipment(companyId: string, id: string, manager: EntityManager): Promise<Shipment | null> {
    const rows: Shipment[] = await manager.query(`SELECT ${SHIPMENT} FROM shipments WHERE company_id = $1 AND id = $2 FOR UPDATE`, [companyId, id]);
    return rows[0] ?? null;
  }

  /** The newest shipment of a document (the invoice itself when reminderId is null), whatever its status. */
  async latestShipment(companyId: string, invoiceId: string, reminderId: string | null, manager: EntityManager = this.db.manager): Promise<Shipment | null> {
    const rows: Shipment[] = await manager.query(
      `SELECT ${SHIPMENT} FROM shipments
       WHERE company_id = $1 AND invoice_id = $2 AND reminder_id IS NOT DISTINCT FROM $3
       ORDER BY created_at DESC, id DESC LIMIT 1`,
      [companyId, invoiceId, reminderId],
    );
    return rows[0] ?? null;
  }

  shipmentsOf(companyId: string, invoiceId: string): Promise<Shipment[]> {
    return this.db.query(`SELECT ${SHIPMENT} FROM shipments WHERE company_id = $1 AND invoice_id = $2 ORDER BY created_at, id`, [companyId, invoiceId]);
  }

  /**
   * Shipments someone has to act on: nothing went out (failed, or could not start), and it is still the
   * newest shipment of its document (shipping the document again settles the flag). A shipment that
   * went out on one channel keeps its note in `attention` and in the invoice's events, not here.
   */
  async needingAttention(companyId: string, filter: AttentionFilter, page: PageRequest): Promise<{ shipments: Shipment[]; total: number }> {
    const where = `s.company_id = $1 AND s.attention IS NOT NULL AND s.status IN ('failed', 'needs_attention')
        AND ($2::uuid IS NULL OR s.invoice_id = $2) AND ($3::text IS NULL OR s.document = $3)
        AND NOT EXISTS (
        SELECT 1 FROM shipments later
        WHERE later.company_id = s.company_id AND later.invoice_id = s.invoice_id
          AND later.reminder_id IS NOT DISTINCT FROM s.reminder_id AND later.created_at > s.created_at)`;
    const params = [companyId, filter.invoiceId ?? null, filter.document ?? null];
    const [shipments, counts] = await Promise.all([
      this.db.query(`SELECT ${select(SHIPMENT_COLUMNS, 's.')} FROM shipments s WHERE ${where} ORDER BY s.created_at, s.id LIMIT $4 OFFSET $5`, [
        ...params,
        page.perPage,
        page.offset,
      ]) as Promise<Shipment[]>,
      this.db.query(`SELECT count(*)::int AS total FROM shipments s WHERE ${where}`, params) as Promise<Array<{ total: number }>>,
    ]);
    return { shipments, total: counts[0].total };
  }

  /**
   * Channels still waiting for an outcome although no job will bring one: the shipment is pending, the
   * channel has been quiet for `quietSeconds`, and its queue holds no live job (created, retry, active
   * and not long expired) for it — it was dead-lettered, or lost with its process on the last attempt. Across companies: the
   * sweep is the service's own housekeeping, not a tenant's lookup. Reads pg-boss's job table (the
   * same database), with the last error the queue kept for the job.
   */
  stalledChannels(queues: Record<Channel, string>, quietSeconds: number, limit: number): Promise<StalledChannel[]> {
    return this.db.query(
      `SELECT s.company_id AS "companyId", s.id AS "shipmentId", c.channel,
         (SELECT coalesce(j.output->>'message', j.output->'value'->>'message')
            FROM pgboss.job j WHERE j.name = c.queue AND j.data->>'shipmentId' = s.id::text
            ORDER BY j.created_on DESC LIMIT 1) AS "lastError"
       FROM shipments s
       CROSS JOIN LATERAL (VALUES ('email', s.email_status, $1::text), ('post', s.post_status, $2::text)) AS c (channel, status, queue)
       WHERE s.status = 'pending' AND c.status = 'pending' AND s.updated_at < now() - make_interval(secs => $3)
         AND NOT EXISTS (
           SELECT 1 FROM pgboss.job j
           WHERE j.name = c.queue AND j.state < 'completed' AND j.data->>'shipmentId' = s.id::text
             -- an attempt long past its expiry is no live job either, should no replica supervise the queue
             AND NOT (j.state = 'active' AND j.started_on + j.expire_in < now() - make_interval(secs => $3)))
       ORDER BY s.updated_at LIMIT $4`,
      [queues.email, queues.post, quietSeconds, limit],
    );
  }

  async insertDelivery(delivery: Delivery, manager: EntityManager): Promise<Delivery> {
    const { names, params, values } = insertParts(DELIVERY_COLUMNS, delivery);
    await manager.query(`INSERT INTO deliveries (${names}) VALUES (${params})`, values);
    return delivery;
  }

  /** The number the next attempt on this channel gets (1 for the first). */
  async nextAttempt(companyId: string, shipmentId: string, channel: string, manager: EntityManager): Promise<number> {
    const rows: Array<{ n: number }> = await manager.query(
      `SELECT count(*)::int AS n FROM deliveries WHERE company_id = $1 AND shipment_id = $2 AND channel = $3`,
      [companyId, shipmentId, channel],
    );
    return rows[0].n + 1;
  }

  deliveriesOf(companyId: string, invoiceId: string): Promise<Delivery[]> {
    return this.db.query(`SELECT ${DELIVERY} FROM deliveries WHERE company_id = $1 AND invoice_id = $2 ORDER BY created_at, id`, [companyId, invoiceId]);
  }

  /** Contacts of a customer with an e-mail address, oldest first, as the transaction sees them. */
  contactsWithEmail(companyId: string, customerId: string, manager: EntityManager): Promise<Contact[]> {
    return manager
      .createQueryBuilder(Contact, 'c')
      .where("c.company_id = :companyId AND c.customer_id = :customerId AND coalesce(trim(c.email), '') <> ''", { companyId, customerId })
      .orderBy('c.created_at', 'ASC')
      .addOrderBy('c.id', 'ASC')
      .getMany();
  }

  findReminder(companyId: string, invoiceId: string, id: string, manager: EntityManager = this.db.manager): Promise<Reminder | null> {
    return manager.findOneBy(Reminder, { companyId, invoiceId, id });
  }

  lockReminder(companyId: string, id: string, manager: EntityManager): Promise<Reminder | null> {
    return manager.findOne(Reminder, { where: { companyId, id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Shipping's part of a reminder: when it went out, and the mode it went out by. */
  async markReminderShipped(reminder: Reminder, sentAt: Date, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE reminders SET last_sent_at = $3 WHERE company_id = $1 AND id = $2`, [reminder.companyId, reminder.id, sentAt]);
  }

  /** An invoice without a PDF of its own gets the one the service rendered when shipping it (never replacing one). */
  async attachRenderedInvoicePdf(invoice: Invoice, file: { key: string; size: number; sha256: Buffer }, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE invoices SET pdf_key = $3, pdf_size = $4, pdf_sha256 = $5, updated_at = now() WHERE company_id = $1 AND id = $2 AND pdf_key IS NULL`,
      [invoice.companyId, invoice.id, file.key, file.size, file.sha256],
    );
  }

  async setReminderMode(reminder: Reminder, mode: string, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE reminders SET shipping_mode = $3 WHERE company_id = $1 AND id = $2 AND shipping_mode IS NULL`, [reminder.companyId, reminder.id, mode]);
  }
}
