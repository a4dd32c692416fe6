// Loads what an invoice response shows: the invoice with its customer, contact, payments and reminders,
// in a fixed number of queries for any number of invoices.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { CONTACT_REFERENCE_FIELDS } from '../contacts/contact.serializer.js';
import { Customer } from '../customers/customer.entity.js';
import type { Invoice } from './invoice.entity.js';
import { CUSTOMER_REFERENCE_FIELDS } from '../customers/customer.serializer.js';
import type { InvoiceView } from './invoice.serializer.js';
import { InterestLines } from './interest/interest-lines.repository.js';
import { PaymentsRepository } from './payments.repository.js';
import { concurrentReads } from '../database/sql/concurrent-reads.js';
import { entityReviver, tupleReviver } from '../database/sql/entity-json.js';
import { Sql } from '../database/sql/sql.js';
import type { PageRequest } from '../common/pagination.js';
import { type InvoiceViewRow, VIEW_BY_EXTERNAL_ID, VIEW_BY_ID, VIEW_PAGE } from './invoice-views.sql.js';
import { type InvoiceFilters, listParams, listVariant } from './invoices.repository.js';
import { Payment } from './payment.entity.js';
import { Reminder } from './reminder.entity.js';

const revive = {
  customer: tupleReviver(Customer, CUSTOMER_REFERENCE_FIELDS),
  contact: tupleReviver(Contact, CONTACT_REFERENCE_FIELDS),
  payments: entityReviver(Payment),
  reminders: entityReviver(Reminder),
};

/**
 * A row of invoice-views.sql.ts as the view. The row is the invoice: its `$` columns are not copied away
 * (two copies of every row's forty columns were a tenth of a page's CPU); no serializer reads them.
 */
function viewOf(row: InvoiceViewRow): InvoiceView {
  return {
    invoice: row,
    customer: revive.customer([row.$customer])[0],
    contact: row.$contact ? revive.contact([row.$contact])[0] : null,
    payments: revive.payments(row.$payments),
    reminders: revive.reminders(row.$reminders),
    interest: { defaultSince: row.$defaultSince, accruedInterest: row.$accrued },
  };
}

@Injectable()
export class InvoiceViews {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly payments: PaymentsRepository,
    private readonly interest: InterestLines,
    private readonly sql: Sql,
  ) {}

  /** The view of the company's invoice with this id, in one statement (invoice-views.sql.ts). */
  async byId(companyId: string, id: string): Promise<InvoiceView | null> {
    const row = await this.sql.first(VIEW_BY_ID, [companyId, id]);
    return row ? viewOf(row) : null;
  }

  /** The view of the company's invoice with this external_id (case-insensitive), in one statement. */
  async byExternalId(companyId: string, externalId: string): Promise<InvoiceView | null> {
    const row = await this.sql.first(VIEW_BY_EXTERNAL_ID, [companyId, externalId]);
    return row ? viewOf(row) : null;
  }

  /** One page of the list, oldest first, in one statement; with the list's total when the page was full (else null). */
  async page(companyId: string, filters: InvoiceFilters, page: PageRequest): Promise<{ items: InvoiceView[]; total: number | null }> {
    const rows = await this.sql.rows(VIEW_PAGE(listVariant(filters)), [...listParams(companyId, filters), page.perPage, page.offset]);
    const total = rows[0]?.$total;
    return { items: rows.map(viewOf), total: total == null ? null : Number(total) };
  }

  /** With a manager: read inside that transaction (on its connection, seeing its writes). */
  async one(invoice: Invoice, manager?: EntityManager): Promise<InvoiceView> {
    return (await this.many(invoice.companyId, [invoice], manager))[0];
  }

  async many(companyId: string, invoices: Invoice[], manager: EntityManager = this.db.manager): Promise<InvoiceView[]> {
    if (invoices.length === 0) return [];
    const ids = invoices.map((i) => i.id);
    const customerIds = [...new Set(invoices.map((i) => i.customerId))];
    const contactIds = [...new Set(invoices.map((i) => i.contactId).filter((id): id is string => id !== null))];
    const [customers, contacts, payments, reminders, interest] = await concurrentReads(manager, [
      () => manager.findBy(Customer, { companyId, id: In(customerIds) }),
      () => (contactIds.length ? manager.findBy(Contact, { companyId, id: In(contactIds) }) : Promise.resolve([])),
      () => this.payments.paymentsOf(companyId, ids, manager),
      () => this.payments.remindersOf(companyId, ids, manager),
      () => this.interest.states(manager, companyId, ids),
    ] as const);
    const customerById = new Map(customers.map((c) => [c.id, c]));
    const contactById = new Map(contacts.map((c) => [c.id, c]));
    return invoices.map((invoice) => ({
      invoice,
      customer: customerById.get(invoice.customerId) as Customer,
      contact: invoice.contactId ? (contactById.get(invoice.contactId) ?? null) : null,
      payments: payments.get(invoice.id) ?? [],
      reminders: reminders.get(invoice.id) ?? [],
      interest: interest.get(invoice.id) ?? { defaultSince: null, accruedInterest: '0' },
    }));
  }
}
