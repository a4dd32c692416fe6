// SQL for customers. Every method takes the company id: no query reaches another company's rows.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { AppError } from '../common/errors.js';
import { toPublicId } from '../common/ids.js';
import { isStorableText } from '../common/text.js';
import type { PageRequest } from '../common/pagination.js';
import { lazyColumns } from '../database/entity-columns.js';
import { poolQuery } from '../database/pool-query.js';
import { uniqueWrite } from '../database/unique-write.js';
import { Customer } from './customer.entity.js';

export type CustomerValues = Omit<Customer, 'companyId' | 'id' | 'createdAt' | 'updatedAt'>;

@Injectable()
export class CustomersRepository {
  // The reads are plain SQL: they serve the hottest routes, and TypeORM's builder and hydration cost
  // more CPU than the rest of such a request together.
  private readonly customerColumns = lazyColumns(this.db, Customer);
  private readonly contactColumns = lazyColumns(this.db, Contact);

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(companyId: string, id: string, values: CustomerValues, manager = this.db.manager): Promise<Customer> {
    const now = new Date();
    const customer = manager.create(Customer, { ...values, companyId, id, createdAt: now, updatedAt: now });
    await this.guardExternalId(companyId, values.externalId, manager, () => manager.insert(Customer, customer));
    return customer;
  }

  async update(customer: Customer, changes: Partial<CustomerValues>, manager = this.db.manager): Promise<Customer> {
    const updated: Customer = { ...customer, ...changes, updatedAt: new Date() };
    await this.guardExternalId(customer.companyId, changes.externalId, manager, () =>
      manager.update(Customer, { companyId: customer.companyId, id: customer.id }, { ...changes, updatedAt: updated.updatedAt }),
    );
    return updated;
  }

  async findById(companyId: string, id: string, manager = this.db.manager): Promise<Customer | null> {
    const sql = `SELECT ${this.customerColumns()} FROM customers WHERE company_id = $1 AND id = $2`;
    const rows: Customer[] = manager === this.db.manager ? await poolQuery(this.db, sql, [companyId, id]) : await manager.query(sql, [companyId, id]);
    return rows[0] ?? null;
  }

  async findByExternalId(companyId: string, externalId: string, manager = this.db.manager): Promise<Customer | null> {
    // No stored external_id holds a NUL (Postgres text cannot), and Postgres would refuse it as a parameter.
    if (!isStorableText(externalId)) return null;
    const rows: Customer[] = await manager.query(
      `SELECT ${this.customerColumns()} FROM customers WHERE company_id = $1 AND lower(external_id) = lower($2)`,
      [companyId, externalId],
    );
    return rows[0] ?? null;
  }

  /** One page, oldest first; the count only when the page does not tell the total by itself. */
  async list(companyId: string, page: PageRequest): Promise<{ customers: Customer[]; total: number }> {
    const customers = await poolQuery<Customer>(
      this.db,
      `SELECT ${this.customerColumns()} FROM customers WHERE company_id = $1 ORDER BY created_at ASC, id ASC LIMIT ${page.perPage}${page.offset > 0 ? ` OFFSET ${page.offset}` : ''}`,
      [companyId],
    );
    const counted = customers.length === page.perPage || (customers.length === 0 && page.offset > 0);
    if (!counted) return { customers, total: page.offset + customers.length };
    const [{ count }] = await poolQuery<{ count: string }>(this.db, 'SELECT count(*) AS count FROM customers WHERE company_id = $1', [companyId]);
    return { customers, total: Number(count) };
  }

  /** The contacts of these customers, oldest first: the summaries a customer response embeds. */
  async contactsOf(companyId: string, customerIds: string[]): Promise<Map<string, Contact[]>> {
    const byCustomer = new Map<string, Contact[]>(customerIds.map((id) => [id, []]));
    if (customerIds.length === 0) return byCustomer;
    const list = customerIds.length === 1 ? '= $2' : `IN (${customerIds.map((_, i) => `$${i + 2}`).join(', ')})`;
    const contacts = await poolQuery<Contact>(
      this.db,
      `SELECT ${this.contactColumns()} FROM contacts WHERE company_id = $1 AND customer_id ${list} ORDER BY created_at ASC, id ASC`,
      [companyId, ...customerIds],
    );
    for (const contact of contacts) byCustomer.get(contact.customerId)?.push(contact);
    return byCustomer;
  }

  /** Runs the write; a taken external_id (case-insensitive) becomes a 409 naming the existing record. */
  private async guardExternalId(companyId: string, externalId: string | null | undefined, manager: EntityManager, write: () => Promise<unknown>) {
    if (!externalId) return void (await write());
    // The lookup runs on the writer's connection (uniqueWrite): a second one might never come.
    await uniqueWrite(manager, 'customers_external_id_key', write, async (same) => {
      const existing = await this.findByExternalId(companyId, externalId, same);
      return new AppError(
        'customer.external_id_taken',
        `A customer with external_id "${externalId}" exists already`,
        [{ field: 'external_id', message: 'external_id is already taken' }],
        { existing_id: existing ? toPublicId('cus', existing.id) : undefined },
      );
    });
  }
}
