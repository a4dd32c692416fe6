// The rules for contacts: each belongs to one customer of the same company, named by id or external id.
import { Injectable } from '@nestjs/common';
import type { CompanyContext } from '../auth/principal.js';
import type { Customer } from '../customers/customer.entity.js';
import { CustomersRepository } from '../customers/customers.repository.js';
import { AppError, validationFailed } from '../common/errors.js';
import { newUuid, parsePublicId } from '../common/ids.js';
import type { Contact } from './contact.entity.js';
import { type ContactValues, ContactsRepository } from './contacts.repository.js';
import { CONTACT_DEFAULTS, contactValues } from './contact-values.js';
import type { CreateContactDto, UpdateContactDto } from './dto/contact.dto.js';

export interface ContactWithCustomer {
  contact: Contact;
  customer: Customer;
}

@Injectable()
export class ContactsService {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly customers: CustomersRepository,
  ) {}

  async create(company: CompanyContext, dto: CreateContactDto): Promise<ContactWithCustomer> {
    const customer = await this.resolveCustomer(company, dto);
    if (!customer) {
      throw validationFailed([
        { field: 'customer_id', message: 'customer_id or customer[external_id] is required' },
        { field: 'customer[external_id]', message: 'customer_id or customer[external_id] is required' },
      ]);
    }
    const values = { ...CONTACT_DEFAULTS, ...contactValues(dto), customerId: customer.id } as ContactValues;
    return { contact: await this.contacts.insert(company.id, newUuid(), values), customer };
  }

  async update(company: CompanyContext, publicId: string, dto: UpdateContactDto): Promise<ContactWithCustomer> {
    const contact = await this.require(company, publicId);
    const movedTo = await this.resolveCustomer(company, dto);
    const changes = { ...contactValues(dto), ...(movedTo ? { customerId: movedTo.id } : {}) };
    const updated = Object.keys(changes).length === 0 ? contact : await this.contacts.update(contact, changes);
    return this.withCustomer(company, updated);
  }

  async get(company: CompanyContext, publicId: string): Promise<ContactWithCustomer> {
    return this.withCustomer(company, await this.require(company, publicId));
  }

  async find(company: CompanyContext, externalId: string): Promise<ContactWithCustomer> {
    const contact = await this.contacts.findByExternalId(company.id, externalId);
    if (!contact) throw new AppError('contact.not_found', `No contact with external_id "${externalId}"`);
    return this.withCustomer(company, contact);
  }

  async require(company: CompanyContext, publicId: string): Promise<Contact> {
    const id = parsePublicId('con', publicId);
    const contact = id ? await this.contacts.findById(company.id, id) : null;
    if (!contact) throw new AppError('contact.not_found', `Contact ${publicId} was not found`);
    return contact;
  }

  /** The customer named by customer_id or customer[external_id]; an unknown one is a 422 naming the field. */
  private async resolveCustomer(company: CompanyContext, dto: UpdateContactDto): Promise<Customer | undefined> {
    if (dto.customer_id && dto.customer?.external_id) {
      throw validationFailed([{ field: 'customer[external_id]', message: 'give customer_id or customer[external_id], not both' }]);
    }
    if (dto.customer_id) {
      const id = parsePublicId('cus', dto.customer_id);
      const customer = id ? await this.customers.findById(company.id, id) : null;
      if (!customer) throw validationFailed([{ field: 'customer_id', message: `no customer ${dto.customer_id}` }]);
      return customer;
    }
    const externalId = dto.customer?.external_id;
    if (externalId) {
      const customer = await this.customers.findByExternalId(company.id, externalId);
      if (!customer) {
        throw validationFailed([{ field: 'customer[external_id]', message: `no customer with external_id "${externalId}"` }]);
      }
      return customer;
    }
    return undefined;
  }

  private async withCustomer(company: CompanyContext, contact: Contact): Promise<ContactWithCustomer> {
    const customer = await this.customers.findById(company.id, contact.customerId);
    if (!customer) throw new Error(`contact ${contact.id} has no customer`);
    return { contact, customer };
  }
}
