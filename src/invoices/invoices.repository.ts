// SQL for invoices and their event history. Every method takes the company id. Writes of an invoice's
// status and money, and new invoices, are the ledger's (src/invoices/ledger).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../common/errors.js';
import { toPublicId } from '../common/ids.js';
import { Customer } from '../customers/customer.entity.js';
import { entityColumns } from '../database/sql/entity-columns.js';
import { Sql } from '../database/sql/sql.js';
import { statement, statementFamily } from '../database/sql/statement.js';
import { uniqueWrite } from '../database/sql/unique-write.js';
import { type ActorType, InvoiceEvent } from './invoice-event.entity.js';
import { invoiceSelect } from './invoice-columns.js';
import { Invoice } from './invoice.entity.js';
import type { InvoiceStatus } from './invoice-status.js';
import type { InvoiceValues } from './ledger/new-invoice.js';

export type { InvoiceValues };

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

/** The first write of a create: announces the invoice's files and reads the company's defaults and the customer. */
const CREATE_BEGIN = statement<Record<string, unknown>>(
  'invoices.create_begin',
  () => `WITH announced AS (INSERT INTO pending_documents (company_id, id, keys) VALUES ($1, $2, $3))
         SELECT co.autosend AS "$autosend", co.autoskip_shipping AS "$autoskip", ${entityColumns(Customer, 'cu')}
           FROM companies co LEFT JOIN customers cu ON cu.company_id = co.id AND cu.id = $4
          WHERE co.id = $1`,
);
const LOCK_EXTERNAL_ID = statement('invoices.lock_external_id', 'SELECT pg_advisory_xact_lock(hashtextextended($1 || lower($2), 0))');
const FIND_BY_EXTERNAL_ID = statement<Invoice>(
  'invoices.find_by_external_id',
  () => `SELECT ${invoiceSelect('i')} FROM invoices i WHERE i.company_id = $1 AND lower(i.external_id) = lower($2)`,
);
export type ListFilter = { status: boolean; customer: boolean; since: boolean };
/** The filters given, as conditions on numbered parameters after the company ($1); the next free number. */
export function listWhere(f: ListFilter): { where: string; next: number } {
  const conditions = ['i.company_id = $1'];
  if (f.status) conditions.push(`i.status = $${conditions.length + 1}`);
  if (f.customer) conditions.push(`i.customer_id = $${conditions.length + 1}`);
  if (f.since) conditions.push(`i.updated_at >= $${conditions.length + 1}`);
  return { where: conditions.join(' AND '), next: conditions.length + 1 };
}
export const LIST_FILTERS: ListFilter[] = [false, true].flatMap((status) =>
  [false, true].flatMap((customer) => [false, true].map((since) => ({ status, customer, since }))),
);
/** The variant of the list's statements for these filters. */
export function listVariant(filters: InvoiceFilters): ListFilter {
  return { status: !!filters.status, customer: !!filters.customerId, since: !!filters.updatedSince };
}
/** The company and the filters given, as the parameters of listWhere. */
export function listParams(companyId: string, filters: InvoiceFilters): unknown[] {
  return [companyId, ...[filters.status, filters.customerId, filters.updatedSince].filter(Boolean)];
}
const COUNT = statementFamily<ListFilter, { count: string }>(
  'invoices.count',
  (f) => `SELECT count(*) AS count FROM invoices i WHERE ${listWhere(f).where}`,
  LIST_FILTERS,
);
/** lockById() for many invoices, money fields only; locked in one order (company, id), so two batches never deadlock. */
const LOCK_MONEY_MANY = statement<InvoiceMoneyRow>(
  'invoices.lock_money',
  `SELECT i.company_id AS "companyId", i.id, i.status, i.original_total::text AS "originalTotal", i.reminder_fees::text AS "reminderFees",
          i.default_interest::text AS "defaultInterest", i.flat_fee::text AS "flatFee", i.paid_amount::text AS "paidAmount", i.waived_amount::text AS "waivedAmount"
     FROM invoices i JOIN (SELECT DISTINCT * FROM unnest($1::uuid[], $2::uuid[])) AS t(company_id, id) ON i.company_id = t.company_id AND i.id = t.id
    ORDER BY i.company_id, i.id
    FOR UPDATE OF i`,
  { crossTenant: 'a push batch locks invoices of the companies its documents name; the keys pair each id with its company' },
);
const EVENT_COLUMNS = 'company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason, details';
const ADD_EVENTS = statement(
  'invoices.add_events',
  `INSERT INTO invoice_events (${EVENT_COLUMNS})
   SELECT ${EVENT_COLUMNS}
     FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::jsonb[])
          WITH ORDINALITY AS t(${EVENT_COLUMNS}, n)
    ORDER BY n`,
);
const ADD_EVENT = statement(
  'invoices.add_event',
  `INSERT INTO invoice_events (${EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
);

@Injectable()
export class InvoicesRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sql: Sql,
  ) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  /**
   * The first write of a create, on the pool in one statement: announces the invoice's files
   * (pending_documents, committed before any is stored) and reads the company's shipping defaults and,
   * when `customerId` is given, that customer (null when the company has none of that id).
   */
  async beginCreate(companyId: string, id: string, keys: string[], customerId?: string): Promise<CreateStart> {
    const row = await this.sql.first(CREATE_BEGIN, [companyId, id, keys, customerId ?? null]);
    const { $autosend, $autoskip, ...customer } = row ?? {};
    return {
      autosend: ($autosend as boolean | undefined) ?? false,
      autoskipShipping: ($autoskip as boolean | undefined) ?? false,
      customer: customer.id ? (customer as unknown as Customer) : null,
    };
  }

  /** For reads outside a transaction of the caller's. */
  get manager(): EntityManager {
    return this.sql.manager;
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
    await this.sql.run(LOCK_EXTERNAL_ID, [`${kind}:${companyId}:`, externalId], manager);
  }

  findById(companyId: string, id: string, manager: EntityManager = this.db.manager): Promise<Invoice | null> {
    return manager.findOneBy(Invoice, { companyId, id });
  }

  /** Reads the invoice and locks its row until the transaction ends: money changes queue up, none is lost. */
  lockById(companyId: string, id: string, manager: EntityManager): Promise<Invoice | null> {
    return manager.findOne(Invoice, { where: { companyId, id }, lock: { mode: 'pessimistic_write' } });
  }

  async findByExternalId(companyId: string, externalId: string, manager: EntityManager = this.db.manager): Promise<Invoice | null> {
    return (await this.sql.first(FIND_BY_EXTERNAL_ID, [companyId, externalId], manager)) ?? null;
  }

  /** How many of the company's invoices pass the filters. */
  async count(companyId: string, filters: InvoiceFilters): Promise<number> {
    const { count } = await this.sql.one(COUNT(listVariant(filters)), listParams(companyId, filters));
    return Number(count);
  }

  /** lockById() for many invoices, money fields only; locked in one order (company, id), so two batches never deadlock. */
  async lockMoneyMany(keys: Array<{ companyId: string; id: string }>, manager: EntityManager): Promise<InvoiceMoneyRow[]> {
    return this.sql.rows(LOCK_MONEY_MANY, [keys.map((k) => k.companyId), keys.map((k) => k.id)], manager);
  }

  /** addEvent() for many, in one statement, in the given order. */
  async addEvents(events: InvoiceEventRow[], manager: EntityManager): Promise<void> {
    if (events.length === 0) return;
    const values = events.map((e) => eventValues(e.invoice, e.actor, e.event));
    await this.sql.run(
      ADD_EVENTS,
      [0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => values.map((v) => v[i])),
      manager,
    );
  }

  async addEvent(invoice: Pick<Invoice, 'companyId' | 'id'>, actor: Actor, event: NewEvent, manager: EntityManager): Promise<void> {
    await this.sql.run(ADD_EVENT, eventValues(invoice, actor, event), manager);
  }

  events(companyId: string, invoiceId: string): Promise<InvoiceEvent[]> {
    return this.db.manager.find(InvoiceEvent, { where: { companyId, invoiceId }, order: { id: 'ASC' } });
  }

  /** Runs the write; a taken external_id (case-insensitive) becomes a 409 naming the existing invoice. */
  async guardExternalId(companyId: string, externalId: string | null | undefined, manager: EntityManager, write: () => Promise<unknown>) {
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
export function eventValues(invoice: Pick<Invoice, 'companyId' | 'id'>, actor: Actor, event: NewEvent): unknown[] {
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
