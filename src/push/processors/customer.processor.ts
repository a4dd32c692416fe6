// Customer documents: create or update the customer with the document's external_id (master data from
// the ERP system); a document that changes nothing is applied as `unchanged`.
import { Injectable } from '@nestjs/common';
import { newUuid } from '../../common/ids.js';
import type { Customer } from '../../customers/customer.entity.js';
import { CUSTOMER_DEFAULTS, customerValues } from '../../customers/customer-values.js';
import { CustomersRepository, type CustomerValues } from '../../customers/customers.repository.js';
import { InvoicesRepository } from '../../invoices/invoices.repository.js';
import type { EntityManager } from 'typeorm';
import type { DocumentProcessor, ProcessContext, ProcessResult } from './processor.js';

@Injectable()
export class CustomerProcessor implements DocumentProcessor {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly invoices: InvoicesRepository,
  ) {}

  async apply({ company, document, manager }: ProcessContext): Promise<ProcessResult> {
    const { customer, changed } = await this.upsert(company.id, document.externalId, document.payload, manager);
    return { outcome: changed ? 'applied' : 'unchanged', result: { type: 'customer', id: customer.id } };
  }

  /** Also used for the customer nested in an invoice document. */
  async upsert(
    companyId: string,
    externalId: string,
    fields: Record<string, unknown>,
    manager: EntityManager,
  ): Promise<{ customer: Customer; changed: boolean }> {
    const values = customerValues({ ...fields, external_id: externalId });
    // Documents of one new customer processed at once (and REST's extended create) take turns here
    // instead of both inserting it and one failing.
    await this.invoices.lockExternalId('customer', companyId, externalId, manager);
    const existing = await this.customers.findByExternalId(companyId, externalId, manager);
    if (!existing) {
      const customer = await this.customers.insert(companyId, newUuid(), { ...CUSTOMER_DEFAULTS, ...values } as CustomerValues, manager);
      return { customer, changed: true };
    }
    const current = existing as unknown as Record<string, unknown>;
    const changes = Object.fromEntries(
      Object.entries(values).filter(([key, value]) => key !== 'externalId' && current[key] !== value),
    ) as Partial<CustomerValues>;
    if (Object.keys(changes).length === 0) return { customer: existing, changed: false };
    return { customer: await this.customers.update(existing, changes, manager), changed: true };
  }
}
