// The rules for customers: creation, partial update, lookups. Everything is scoped by the company.
import { Injectable } from '@nestjs/common';
import type { CompanyContext } from '../auth/principal.js';
import { AppError } from '../common/errors.js';
import { newUuid, parsePublicId } from '../common/ids.js';
import type { PageRequest } from '../common/pagination.js';
import type { Customer } from './customer.entity.js';
import { type CustomerValues, type CustomerWithContacts, CustomersRepository } from './customers.repository.js';
import { CUSTOMER_DEFAULTS, customerValues } from './customer-values.js';
import type { CreateCustomerDto, UpdateCustomerDto } from './dto/customer.dto.js';

export type { CustomerWithContacts };

@Injectable()
export class CustomersService {
  constructor(private readonly customers: CustomersRepository) {}

  async create(company: CompanyContext, dto: CreateCustomerDto): Promise<CustomerWithContacts> {
    const values = { ...CUSTOMER_DEFAULTS, ...customerValues(dto) } as CustomerValues;
    const customer = await this.customers.insert(company.id, newUuid(), values);
    return { customer, contacts: [] };
  }

  async update(company: CompanyContext, publicId: string, dto: UpdateCustomerDto): Promise<CustomerWithContacts> {
    const customer = await this.require(company, publicId);
    const changes = customerValues(dto);
    const updated = Object.keys(changes).length === 0 ? customer : await this.customers.update(customer, changes);
    return this.withContacts(company, updated);
  }

  async get(company: CompanyContext, publicId: string): Promise<CustomerWithContacts> {
    const id = parsePublicId('cus', publicId);
    const found = id ? await this.customers.findWithContacts(company.id, id) : null;
    if (!found) throw notFound(publicId);
    return found;
  }

  async find(company: CompanyContext, externalId: string): Promise<CustomerWithContacts> {
    const found = await this.customers.findWithContactsByExternalId(company.id, externalId);
    if (!found) throw new AppError('customer.not_found', `No customer with external_id "${externalId}"`);
    return found;
  }

  async list(company: CompanyContext, page: PageRequest): Promise<{ items: CustomerWithContacts[]; total: number }> {
    return this.customers.list(company.id, page);
  }

  /** The customer with this public id, or a 404 (also for another company's customer). */
  async require(company: CompanyContext, publicId: string): Promise<Customer> {
    const id = parsePublicId('cus', publicId);
    const customer = id ? await this.customers.findById(company.id, id) : null;
    if (!customer) throw notFound(publicId);
    return customer;
  }

  private async withContacts(company: CompanyContext, customer: Customer): Promise<CustomerWithContacts> {
    const contacts = await this.customers.contactsOf(company.id, [customer.id]);
    return { customer, contacts: contacts.get(customer.id) ?? [] };
  }
}

function notFound(publicId: string): AppError {
  return new AppError('customer.not_found', `Customer ${publicId} was not found`);
}
