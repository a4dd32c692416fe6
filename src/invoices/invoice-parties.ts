// Who an invoice is addressed to: the customer and contact named by id, or given as nested
// `customer[...]` / `contact[...]` and created (or, matched by external_id, updated) in the
// invoice's transaction. Errors name the fields as the client sent them.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Contact } from '../contacts/contact.entity.js';
import { CONTACT_DEFAULTS, contactValues, REQUIRED_CONTACT_FIELDS } from '../contacts/contact-values.js';
import { ContactsRepository, type ContactValues } from '../contacts/contacts.repository.js';
import type { UpdateContactDto } from '../contacts/dto/contact.dto.js';
import type { Customer } from '../customers/customer.entity.js';
import { CUSTOMER_DEFAULTS, customerValues, REQUIRED_CUSTOMER_FIELDS } from '../customers/customer-values.js';
import { CustomersRepository, type CustomerValues } from '../customers/customers.repository.js';
import type { UpdateCustomerDto } from '../customers/dto/customer.dto.js';
import { AppError, type FieldError, validationFailed } from '../common/errors.js';
import { newUuid, parsePublicId } from '../common/ids.js';
import { InvoicesRepository } from './invoices.repository.js';

function missing(dto: object, required: readonly string[]): FieldError[] {
  const values = dto as Record<string, unknown>;
  return required
    .filter((key) => values[key] === undefined || values[key] === null)
    .map((key) => ({ field: key, message: `${key} is required for a new record` }));
}

/** Re-raises a nested record's error with the field names the client used (`customer[external_id]`). */
async function asNested<T>(prefix: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) {
      const errors = error.errors.map((e) => ({ ...e, field: `${prefix}[${e.field}]` }));
      throw new AppError(error.code, error.message, errors, error.extensions);
    }
    throw error;
  }
}

@Injectable()
export class InvoiceParties {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly contacts: ContactsRepository,
    private readonly invoices: InvoicesRepository,
  ) {}

  async customer(
    companyId: string,
    customerId: string | null | undefined,
    nested: UpdateCustomerDto | undefined,
    manager: EntityManager,
  ): Promise<Customer> {
    if (customerId && nested) {
      throw validationFailed([{ field: 'customer_id', message: 'customer_id is not given together with customer[...]' }]);
    }
    if (customerId) {
      const id = parsePublicId('cus', customerId);
      return this.namedCustomer(customerId, id ? await this.customers.findById(companyId, id, manager) : null);
    }
    if (!nested) throw validationFailed([{ field: 'customer_id', message: 'customer_id or customer[...] is required' }]);
    if (nested.external_id) await this.invoices.lockExternalId('customer', companyId, nested.external_id, manager);
    const existing = nested.external_id ? await this.customers.findByExternalId(companyId, nested.external_id, manager) : null;
    const values = customerValues(nested);
    return asNested('customer', async () => {
      if (existing) return Object.keys(values).length ? this.customers.update(existing, values, manager) : existing;
      const errors = missing(nested, REQUIRED_CUSTOMER_FIELDS);
      if (errors.length) throw validationFailed(errors);
      return this.customers.insert(companyId, newUuid(), { ...CUSTOMER_DEFAULTS, ...values } as CustomerValues, manager);
    });
  }

  /** customer() for a customer_id whose row the caller has read already (null: the company has none such). */
  namedCustomer(customerId: string, found: Customer | null): Customer {
    if (!found) throw validationFailed([{ field: 'customer_id', message: `no customer ${customerId}` }]);
    return found;
  }

  async contact(
    companyId: string,
    customer: Customer,
    contactId: string | null | undefined,
    nested: UpdateContactDto | undefined,
    manager: EntityManager,
  ): Promise<Contact | null> {
    if (contactId && nested) {
      throw validationFailed([{ field: 'contact_id', message: 'contact_id is not given together with contact[...]' }]);
    }
    if (contactId) {
      const id = parsePublicId('con', contactId);
      const contact = id ? await this.contacts.findById(companyId, id, manager) : null;
      if (!contact) throw validationFailed([{ field: 'contact_id', message: `no contact ${contactId}` }]);
      if (contact.customerId !== customer.id) {
        throw validationFailed([{ field: 'contact_id', message: 'the contact belongs to another customer' }]);
      }
      return contact;
    }
    if (!nested) return null;
    if (nested.external_id) await this.invoices.lockExternalId('contact', companyId, nested.external_id, manager);
    const existing = nested.external_id ? await this.contacts.findByExternalId(companyId, nested.external_id, manager) : null;
    if (existing && existing.customerId !== customer.id) {
      throw validationFailed([{ field: 'contact[external_id]', message: 'this contact belongs to another customer' }]);
    }
    const values = contactValues(nested);
    return asNested('contact', async () => {
      if (existing) return Object.keys(values).length ? this.contacts.update(existing, values, manager) : existing;
      const errors = missing(nested, REQUIRED_CONTACT_FIELDS);
      if (errors.length) throw validationFailed(errors);
      return this.contacts.insert(
        companyId,
        newUuid(),
        { ...CONTACT_DEFAULTS, ...values, customerId: customer.id } as ContactValues,
        manager,
      );
    });
  }
}
