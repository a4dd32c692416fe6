// SQL for invoices and their event history. Every method takes the company id.
import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../common/errors.js';
import { toPublicId } from '../common/ids.js';
import type { PageRequest } from '../common/pagination.js';
import { poolQuery } from '../database/pool-query.js';
import { namedQuery } from '../database/named-query.js';
import { lazyColumns } from '../database/entity-columns.js';
import { entityInsert } from '../database/entity-insert.js';
import { Customer } from '../customers/customer.entity.js';
import { uniqueWrite } from '../database/unique-write.js';
import { PendingDocumentsRepository } from '../documents/pending-documents.repository.js';
import { type ActorType, InvoiceEvent } from './invoice-event.entity.js';
import { Invoice } from './invoice.entity.js';
import type { MoneyFields } from './invoice-money.js';
import type { InvoiceStatus } from './invoice-status.js';

export type InvoiceValues = Omit<Invoice, 'companyId' | 'id' | 'createdAt' | 'updatedAt'>;

export interface InvoiceFilters {
  status?: InvoiceStatus;
  customerId?: string;
  updatedSince?: Date;
}

export interface Actor {
  type: ActorType;
  id: string | null;
}

export interface NewEvent {
  kind: string;
  fromStatus?: InvoiceStatus | null;
  toStatus?: InvoiceStatus | null;
  reason?: string | null;
  details?: Record<string, unknown> | null;
}

/** What booking money on an invoice reads of it (under its row lock). */
export type InvoiceMoneyRow = Pick<
  Invoice,
  'companyId' | 'id' | 'status' | 'originalTotal' | 'reminderFees' | 'defaultInterest' | 'flatFee' | 'paidAmount' | 'waivedAmount'
>;

export interface InvoiceEventRow {
  invoice: Pick<Invoice, 'companyId' | 'id'>;
  actor: Actor;
  event: NewEvent;
}

/** What the first statement of a create read: the company's release defaults, the customer if asked for. */
export interface CreateStart {
  autosend: boolean;
  autoskipShipping: boolean;
  customer: Customer | null;
}

@Injectable()
export class InvoicesRepository {
  private readonly customerColumns = lazyColumns(this.db, Customer, 'cu');
  private readonly insertInvoice = entityInsert(this.db, Invoice);
  private readonly createStatements = new Map<string, string>();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(companyId: string, id: string, values: InvoiceValues, manager: EntityManager): Promise<Invoice> {
    const now = new Date();
    const invoice = manager.create(Invoice, { ...values, companyId, id, createdAt: now, updatedAt: now });
    await this.guardExternalId(companyId, values.externalId, manager, () => manager.insert(Invoice, invoice));
    return invoice;
  }

  /**
   * The first write of a create, on the pool in one statement: announces the invoice's files
   * (pending_documents, committed before any is stored) and reads the company's shipping defaults and,
   * when `customerId` is given, that customer (null when the company has none of that id).
   */
  async beginCreate(companyId: string, id: string, keys: string[], customerId?: string): Promise<CreateStart> {
    const [row] = await poolQuery<Record<string, unknown>>(
      this.db,
      namedQuery(
        'invoice_create_begin',
        `WITH announced AS (INSERT INTO pending_documents (company_id, id, keys) VALUES ($1, $2, $3))
         SELECT co.autosend AS "$autosend", co.autoskip_shipping AS "$autoskip", ${this.customerColumns()}
           FROM companies co LEFT JOIN customers cu ON cu.company_id = co.id AND cu.id = $4
          WHERE co.id = $1`,
      ),
      [companyId, id, keys, customerId ?? null],
    );
    const { $autosend, $autoskip, ...customer } = row ?? {};
    return {
      autosend: ($autosend as boolean | undefined) ?? false,
      autoskipShipping: ($autoskip as boolean | undefined) ?? false,
      customer: customer.id ? (customer as unknown as Customer) : null,
    };
  }

  /** For reads outside a transaction of the caller's. */
  get manager(): EntityManager {
    return this.db.manager;
  }

  /**
   * Inserts the invoice and its first event in one statement (a data-modifying WITH): atomic on its
   * own, one round trip where a transaction takes four (BEGIN, two INSERTs, COMMIT).
   */
  async insertWithEvent(companyId: string, id: string, values: InvoiceValues, actor: Actor, event: NewEvent, options: { settlePendingDocuments?: boolean } = {}): Promise<Invoice> {
    const now = new Date();
    const invoice = this.db.manager.create(Invoice, { ...values, companyId, id, createdAt: now, updatedAt: now });
    const { sql: insertSql, params } = this.insertInvoice(invoice);
    const at = params.length;
    const eventParams = eventValues(invoice, actor, event);
    // The invoice's files stop being pending in the same statement (the event's first two parameters are company and invoice).
    const settle = options.settlePendingDocuments ? `, settled AS (${PendingDocumentsRepository.settleSql(`$${at + 1}`, `$${at + 2}`)}) ` : ' ';
    const sql =
      `WITH created AS (${insertSql})${settle}` +
      `INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason, details) ` +
      `VALUES (${eventParams.map((_, i) => `$${at + i + 1}`).join(', ')})`;
    // Named after its text (one text per set of columns given): planned once per connection.
    let named = this.createStatements.get(sql);
    if (!named) this.createStatements.set(sql, (named = namedQuery(`invoice_create_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`, sql)));
    await this.guardExternalId(companyId, values.externalId, this.db.manager, () => this.db.query(named, [...params, ...eventParams]));
    return invoice;
  }

  async update(invoice: Invoice, changes: Partial<InvoiceValues>, manager: EntityManager = this.db.manager): Promise<Invoice> {
    const updated: Invoice = { ...invoice, ...changes, updatedAt: new Date() };
    await this.guardExternalId(invoice.companyId, changes.externalId, manager, () =>
      manager.update(Invoice, { companyId: invoice.companyId, id: invoice.id }, { ...changes, updatedAt: updated.updatedAt }),
    );
    return updated;
  }

  /**
   * Serializes the transactions that create-or-reuse the same nested customer or contact by external_id
   * (extended create): concurrent invoices for one new customer then reuse it instead of failing with
   * a 409. Held until the transaction ends.
   */
  async lockExternalId(kind: 'customer' | 'contact', companyId: string, externalId: string, manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1 || lower($2), 0))`, [`${kind}:${companyId}:`, externalId]);
  }

  findById(companyId: string, id: string, manager: EntityManager = this.db.manager): Promise<Invoice | null> {
    return manager.findOneBy(Invoice, { companyId, id });
  }

  /** Reads the invoice and locks its row until the transaction ends: money changes queue up, none is lost. */
  lockById(companyId: string, id: string, manager: EntityManager): Promise<Invoice | null> {
    return manager.findOne(Invoice, { where: { companyId, id }, lock: { mode: 'pessimistic_write' } });
  }

  findByExternalId(companyId: string, externalId: string, manager: EntityManager = this.db.manager): Promise<Invoice | null> {
    return manager
      .createQueryBuilder(Invoice, 'i')
      .where('i.company_id = :companyId AND lower(i.external_id) = lower(:externalId)', { companyId, externalId })
      .getOne();
  }

  async list(companyId: string, filters: InvoiceFilters, page: PageRequest): Promise<{ invoices: Invoice[]; total: number }> {
    const query = this.db.manager.createQueryBuilder(Invoice, 'i').where('i.company_id = :companyId', { companyId });
    if (filters.status) query.andWhere('i.status = :status', { status: filters.status });
    if (filters.customerId) query.andWhere('i.customer_id = :customerId', { customerId: filters.customerId });
    if (filters.updatedSince) query.andWhere('i.updated_at >= :since', { since: filters.updatedSince });
    const [invoices, total] = await query
      .orderBy('i.created_at', 'ASC')
      .addOrderBy('i.id', 'ASC')
      .skip(page.offset)
      .take(page.perPage)
      .getManyAndCount();
    return { invoices, total };
  }

  /** lockById() for many invoices, money fields only; locked in one order (company, id), so two batches never deadlock. */
  async lockMoneyMany(keys: Array<{ companyId: string; id: string }>, manager: EntityManager): Promise<InvoiceMoneyRow[]> {
    const rows: Array<Record<string, string>> = await manager.query(
      namedQuery('invoices_lock_money', `SELECT i.company_id, i.id, i.status, i.original_total::text, i.reminder_fees::text, i.default_interest::text,
              i.flat_fee::text, i.paid_amount::text, i.waived_amount::text
         FROM invoices i JOIN (SELECT DISTINCT * FROM unnest($1::uuid[], $2::uuid[])) AS t(company_id, id) ON i.company_id = t.company_id AND i.id = t.id
        ORDER BY i.company_id, i.id
        FOR UPDATE OF i`),
      [keys.map((k) => k.companyId), keys.map((k) => k.id)],
    );
    return rows.map((r) => ({
      companyId: r.company_id, id: r.id, status: r.status as InvoiceStatus, originalTotal: r.original_total, reminderFees: r.reminder_fees,
      defaultInterest: r.default_interest, flatFee: r.flat_fee, paidAmount: r.paid_amount, waivedAmount: r.waived_amount,
    }));
  }

  /** New money fields for many invoices at once (locked by the caller). */
  async updateMoneyMany(changes: Array<{ companyId: string; id: string; fields: MoneyFields }>, manager: EntityManager): Promise<void> {
    if (changes.length === 0) return;
    const column = (pick: (f: MoneyFields) => string) => changes.map((c) => pick(c.fields));
    await manager.query(
      namedQuery('invoices_update_money', `UPDATE invoices i SET original_total = t.original_total, reminder_fees = t.reminder_fees, default_interest = t.default_interest,
              flat_fee = t.flat_fee, paid_amount = t.paid_amount, waived_amount = t.waived_amount, open_amount = t.open_amount, updated_at = now()
         FROM unnest($1::uuid[], $2::uuid[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[], $9::numeric[])
              AS t(company_id, id, original_total, reminder_fees, default_interest, flat_fee, paid_amount, waived_amount, open_amount)
        WHERE i.company_id = t.company_id AND i.id = t.id`),
      [
        changes.map((c) => c.companyId),
        changes.map((c) => c.id),
        column((f) => f.originalTotal),
        column((f) => f.reminderFees),
        column((f) => f.defaultInterest),
        column((f) => f.flatFee),
        column((f) => f.paidAmount),
        column((f) => f.waivedAmount),
        column((f) => f.openAmount),
      ],
    );
  }

  /** addEvent() for many, in one statement, in the given order. */
  async addEvents(events: InvoiceEventRow[], manager: EntityManager): Promise<void> {
    if (events.length === 0) return;
    const values = events.map((e) => eventValues(e.invoice, e.actor, e.event));
    const column = (i: number) => values.map((v) => v[i]);
    await manager.query(
      namedQuery('invoice_events_insert_many', `INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason, details)
       SELECT company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason, details
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::jsonb[])
              WITH ORDINALITY AS t(company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason, details, n)
        ORDER BY n`),
      [0, 1, 2, 3, 4, 5, 6, 7, 8].map(column),
    );
  }

  async addEvent(invoice: Invoice, actor: Actor, event: NewEvent, manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason, details)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      eventValues(invoice, actor, event),
    );
  }

  events(companyId: string, invoiceId: string): Promise<InvoiceEvent[]> {
    return this.db.manager.find(InvoiceEvent, { where: { companyId, invoiceId }, order: { id: 'ASC' } });
  }

  /** Runs the write; a taken external_id (case-insensitive) becomes a 409 naming the existing invoice. */
  private async guardExternalId(companyId: string, externalId: string | null | undefined, manager: EntityManager, write: () => Promise<unknown>) {
    if (!externalId) return void (await write());
    await uniqueWrite(manager, 'invoices_external_id_key', write, async (same) => {
      const existing = await this.findByExternalId(companyId, externalId, same);
      return new AppError(
        'invoice.external_id_taken',
        `An invoice with external_id "${externalId}" exists already`,
        [{ field: 'external_id', message: 'external_id is already taken' }],
        { existing_id: existing ? toPublicId('inv', existing.id) : undefined },
      );
    });
  }
}

/** The parameters of an invoice_events row, in the column order of the INSERTs above. */
function eventValues(invoice: Pick<Invoice, 'companyId' | 'id'>, actor: Actor, event: NewEvent): unknown[] {
  return [
    invoice.companyId,
    invoice.id,
    event.kind,
    event.fromStatus ?? null,
    event.toStatus ?? null,
    actor.type,
    actor.id,
    event.reason ?? null,
    event.details ? JSON.stringify(event.details) : null,
  ];
}
