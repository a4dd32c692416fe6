// SQL for payments and reminders of invoices. Every method takes the company id.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In } from 'typeorm';
import { AppError } from '../common/errors.js';
import { toPublicId } from '../common/ids.js';
import { entityColumns } from '../database/sql/entity-columns.js';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';
import { uniqueWrite } from '../database/sql/unique-write.js';
import { Payment } from './payment.entity.js';
import { Reminder } from './reminder.entity.js';

export type PaymentValues = Omit<Payment, 'companyId' | 'id' | 'invoiceId' | 'createdAt' | 'updatedAt'>;

function groupBy<T extends { invoiceId: string }>(ids: string[], rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>(ids.map((id) => [id, []]));
  for (const row of rows) groups.get(row.invoiceId)?.push(row);
  return groups;
}

const FIND_BY_EXTERNAL_ID = statement<Payment>(
  'payments.find_by_external_id',
  () => `SELECT ${entityColumns(Payment, 'p')} FROM payments p WHERE p.company_id = $1 AND lower(p.external_id) = lower($2)`,
);
/**
 * insert() for many; created_at follows the given order (clock_timestamp per row), as payments are
 * listed by it; a taken external_id is skipped.
 */
const INSERT_MANY = statement(
  'payments.insert_many',
  `INSERT INTO payments (company_id, id, invoice_id, external_id, amount, payment_date, note, source, inkasso_payment, created_at, updated_at)
   SELECT company_id, id, invoice_id, external_id, amount, payment_date, note, source, inkasso_payment, clock_timestamp(), clock_timestamp()
     FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::numeric[], $6::date[], $7::text[], $8::text[], $9::bool[])
          WITH ORDINALITY AS t(company_id, id, invoice_id, external_id, amount, payment_date, note, source, inkasso_payment, n)
    ORDER BY n
   ON CONFLICT DO NOTHING
   RETURNING id`,
);
const SUMS = statement<{ invoice_id: string; total: string }>(
  'payments.sums',
  `SELECT p.invoice_id, sum(p.amount)::text AS total
     FROM payments p JOIN unnest($1::uuid[], $2::uuid[]) AS t(company_id, id) ON p.company_id = t.company_id AND p.invoice_id = t.id
    GROUP BY p.invoice_id`,
);
const SUM = statement<{ total: string }>('payments.sum', 'SELECT coalesce(sum(amount), 0)::text AS total FROM payments WHERE company_id = $1 AND invoice_id = $2');

@Injectable()
export class PaymentsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sql: Sql,
  ) {}

  async insert(companyId: string, invoiceId: string, id: string, values: PaymentValues, manager: EntityManager): Promise<Payment> {
    const now = new Date();
    const payment = manager.create(Payment, { ...values, companyId, invoiceId, id, createdAt: now, updatedAt: now });
    const externalId = values.externalId;
    if (!externalId) {
      await manager.insert(Payment, payment);
      return payment;
    }
    await uniqueWrite(manager, 'payments_external_id_key', () => manager.insert(Payment, payment), async (same) => {
      const existing = await this.sql.first(FIND_BY_EXTERNAL_ID, [companyId, externalId], same);
      return new AppError(
        'payment.external_id_taken',
        `A payment with external_id "${externalId}" exists already`,
        [{ field: 'external_id', message: 'external_id is already taken' }],
        { existing_id: existing ? toPublicId('pay', existing.id) : undefined, invoice_id: existing ? toPublicId('inv', existing.invoiceId) : undefined },
      );
    });
    return payment;
  }

  /**
   * insert() for many, in one statement; answers how many went in. A taken external_id is skipped
   * (ON CONFLICT DO NOTHING) instead of aborting the transaction: the caller sees the shortfall.
   * created_at follows the given order (clock_timestamp per row), as payments are listed by it.
   */
  async insertMany(rows: Array<PaymentValues & { companyId: string; invoiceId: string; id: string }>, manager: EntityManager): Promise<number> {
    if (rows.length === 0) return 0;
    const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key]);
    return this.sql.affected(
      INSERT_MANY,
      [
        column('companyId'), column('id'), column('invoiceId'), column('externalId'), column('amount'),
        column('paymentDate'), column('note'), column('source'), column('inkassoPayment'),
      ],
      manager,
    );
  }

  /** The payments' sum per invoice, as exact text (no entry: no payments). */
  async sums(invoices: Array<{ companyId: string; id: string }>, manager: EntityManager): Promise<Map<string, string>> {
    if (invoices.length === 0) return new Map();
    const rows = await this.sql.rows(SUMS, [invoices.map((i) => i.companyId), invoices.map((i) => i.id)], manager);
    return new Map(rows.map((r) => [r.invoice_id, r.total]));
  }

  findOne(companyId: string, invoiceId: string, id: string, manager: EntityManager): Promise<Payment | null> {
    return manager.findOneBy(Payment, { companyId, invoiceId, id });
  }

  async delete(payment: Payment, manager: EntityManager): Promise<void> {
    await manager.delete(Payment, { companyId: payment.companyId, id: payment.id });
  }

  /** The sum of the invoice's payments, as exact text. */
  async sum(companyId: string, invoiceId: string, manager: EntityManager): Promise<string> {
    return (await this.sql.one(SUM, [companyId, invoiceId], manager)).total;
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
