// SQL for payments and reminders of invoices. Every method takes the company id.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In } from 'typeorm';
import { AppError } from '../common/errors.js';
import { toPublicId } from '../common/ids.js';
import { uniqueWrite } from '../database/unique-write.js';
import { Payment } from './payment.entity.js';
import { Reminder } from './reminder.entity.js';

export type PaymentValues = Omit<Payment, 'companyId' | 'id' | 'invoiceId' | 'createdAt' | 'updatedAt'>;

function groupBy<T extends { invoiceId: string }>(ids: string[], rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>(ids.map((id) => [id, []]));
  for (const row of rows) groups.get(row.invoiceId)?.push(row);
  return groups;
}

@Injectable()
export class PaymentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(companyId: string, invoiceId: string, id: string, values: PaymentValues, manager: EntityManager): Promise<Payment> {
    const now = new Date();
    const payment = manager.create(Payment, { ...values, companyId, invoiceId, id, createdAt: now, updatedAt: now });
    const externalId = values.externalId;
    if (!externalId) {
      await manager.insert(Payment, payment);
      return payment;
    }
    await uniqueWrite(manager, 'payments_external_id_key', () => manager.insert(Payment, payment), async (same) => {
      const existing = await same
        .createQueryBuilder(Payment, 'p')
        .where('p.company_id = :companyId AND lower(p.external_id) = lower(:externalId)', { companyId, externalId })
        .getOne();
      return new AppError(
        'payment.external_id_taken',
        `A payment with external_id "${externalId}" exists already`,
        [{ field: 'external_id', message: 'external_id is already taken' }],
        { existing_id: existing ? toPublicId('pay', existing.id) : undefined, invoice_id: existing ? toPublicId('inv', existing.invoiceId) : undefined },
      );
    });
    return payment;
  }

  findOne(companyId: string, invoiceId: string, id: string, manager: EntityManager): Promise<Payment | null> {
    return manager.findOneBy(Payment, { companyId, invoiceId, id });
  }

  async delete(payment: Payment, manager: EntityManager): Promise<void> {
    await manager.delete(Payment, { companyId: payment.companyId, id: payment.id });
  }

  /** The sum of the invoice's payments, as exact text. */
  async sum(companyId: string, invoiceId: string, manager: EntityManager): Promise<string> {
    const rows: Array<{ total: string }> = await manager.query(
      `SELECT coalesce(sum(amount), 0)::text AS total FROM payments WHERE company_id = $1 AND invoice_id = $2`,
      [companyId, invoiceId],
    );
    return rows[0].total;
  }

  async paymentsOf(companyId: string, invoiceIds: string[], manager: EntityManager = this.db.manager): Promise<Map<string, Payment[]>> {
    if (invoiceIds.length === 0) return new Map();
    const rows = await manager.find(Payment, {
      where: { companyId, invoiceId: In(invoiceIds) },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return groupBy(invoiceIds, rows);
  }

  async remindersOf(companyId: string, invoiceIds: string[], manager: EntityManager = this.db.manager): Promise<Map<string, Reminder[]>> {
    if (invoiceIds.length === 0) return new Map();
    const rows = await manager.find(Reminder, {
      where: { companyId, invoiceId: In(invoiceIds) },
      order: { reminderStage: 'ASC' },
    });
    return groupBy(invoiceIds, rows);
  }
}
