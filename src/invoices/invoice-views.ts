// Loads what an invoice response shows: the invoice with its customer, contact, payments and reminders,
// in a fixed number of queries for any number of invoices.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { Customer } from '../customers/customer.entity.js';
import type { Invoice } from './invoice.entity.js';
import type { InvoiceView } from './invoice.serializer.js';
import { InterestLines } from './interest/interest-lines.repository.js';
import { PaymentsRepository } from './payments.repository.js';
import { concurrentReads } from '../database/sql/concurrent-reads.js';

@Injectable()
export class InvoiceViews {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly payments: PaymentsRepository,
    private readonly interest: InterestLines,
  ) {}

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
