// Everything a shipment needs to know about its document, read in the caller's transaction (a customer
// or contact created with the invoice is visible): company and settings, customer, contacts, reminder terms.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Contact } from '../../contacts/contact.entity.js';
import { ContactsRepository } from '../../contacts/contacts.repository.js';
import { CompaniesRepository } from '../../companies/companies.repository.js';
import type { Company } from '../../companies/company.entity.js';
import { CustomersRepository } from '../../customers/customers.repository.js';
import { DunningPolicyRepository } from '../../companies/dunning-policy.repository.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import type { Reminder } from '../../invoices/reminder.entity.js';
import { InterestLines } from '../../invoices/interest/interest-lines.repository.js';
import { PaymentsRepository } from '../../invoices/payments.repository.js';
import type { LetterParties, ReminderTerms } from '../letters/letter-content.js';
import { modeLevelsFor, resolveShippingMode, type Resolution } from '../routing/shipping-mode.js';
import { ShippingSettingsRepository } from '../settings/shipping-settings.repository.js';
import { ShipmentsRepository } from './shipments.repository.js';
import { concurrentReads } from '../../database/sql/concurrent-reads.js';

export interface ShippingContext extends LetterParties {
  company: Company;
  /** The customer's contacts that have an e-mail address. */
  customerContacts: Contact[];
  reminder: Reminder | null;
  /** The level's text and payment term, for a reminder. */
  terms: ReminderTerms | null;
}

@Injectable()
export class ShippingContexts {
  constructor(
    private readonly companies: CompaniesRepository,
    private readonly customers: CustomersRepository,
    private readonly contacts: ContactsRepository,
    private readonly shipments: ShipmentsRepository,
    private readonly settings: ShippingSettingsRepository,
    private readonly policies: DunningPolicyRepository,
    private readonly interest: InterestLines,
    private readonly payments: PaymentsRepository,
  ) {}

  async load(manager: EntityManager, invoice: Invoice, reminder: Reminder | null): Promise<ShippingContext> {
    const companyId = invoice.companyId;
    const [company, customer, contact, customerContacts, settings, terms, interestLines, settlement] = await concurrentReads(manager, [
      () => this.companies.findById(companyId, manager),
      () => this.customers.findById(companyId, invoice.customerId, manager),
      () => (invoice.contactId ? this.contacts.findById(companyId, invoice.contactId, manager) : Promise.resolve(null)),
      () => this.shipments.contactsWithEmail(companyId, invoice.customerId, manager),
      () => this.settings.forLetters(companyId, manager),
      () => (reminder ? this.termsOf(companyId, reminder, manager) : Promise.resolve(null)),
      () => (reminder ? this.interest.forInvoice(manager, companyId, invoice.id) : Promise.resolve([])),
      () => (reminder ? this.settlementOf(companyId, invoice.id, manager) : Promise.resolve(undefined)),
    ] as const);
    if (!company || !customer) throw new Error(`invoice ${invoice.id} lost its company or customer`);
    return {
      company,
      companyName: company.name,
      settings,
      invoice,
      customer,
      contact,
      customerContacts,
      reminder,
      terms,
      interestLines,
      ...settlement,
    };
  }

  /** The mode by the levels reminder → invoice → customer → company. */
  resolve(ctx: ShippingContext): Resolution {
    const levels = {
      reminder: ctx.reminder?.shippingMode,
      invoice: ctx.invoice.shippingMode,
      customer: ctx.customer.shippingMode,
      company: ctx.company.shippingMode,
    };
    return resolveShippingMode(modeLevelsFor(levels, ctx.reminder ? 'reminder' : 'invoice'));
  }

  /** The invoice's payments and reminders: a reminder letter shows each payment with its § 367 allocation. */
  private async settlementOf(companyId: string, invoiceId: string, manager: EntityManager) {
    const [payments, reminders] = await concurrentReads(manager, [
      () => this.payments.paymentsOf(companyId, [invoiceId], manager),
      () => this.payments.remindersOf(companyId, [invoiceId], manager),
    ] as const);
    return { payments: payments.get(invoiceId) ?? [], reminders: reminders.get(invoiceId) ?? [] };
  }

  private async termsOf(companyId: string, reminder: Reminder, manager: EntityManager): Promise<ReminderTerms> {
    const policy = await this.policies.get(companyId, manager);
    const level = policy.levels[reminder.reminderStage - 1] ?? policy.levels[0];
    return { text: level.text, paymentTermDays: level.paymentTermDays, fee: level.fee };
  }
}
