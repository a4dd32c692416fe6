// SQL for customers. Every method takes the company id: no query reaches another company's rows.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { AppError } from '../common/errors.js';
import { toPublicId } from '../common/ids.js';
import { isStorableText } from '../common/text.js';
import type { PageRequest } from '../common/pagination.js';
import { entityColumns } from '../database/sql/entity-columns.js';
import { entityTuple, tupleReviver } from '../database/sql/entity-json.js';
import { Sql } from '../database/sql/sql.js';
import { statement, statementFamily } from '../database/sql/statement.js';
import { uniqueWrite } from '../database/sql/unique-write.js';
import { Customer } from './customer.entity.js';

// The reads are plain SQL: they serve the hottest routes, and TypeORM's builder and hydration cost more
// CPU than the rest of such a request together.
const FIND_BY_ID = statement<Customer>(
  'customers.find_by_id',
  () => `SELECT ${entityColumns(Customer)} FROM customers WHERE company_id = $1 AND id = $2`,
);
const FIND_BY_EXTERNAL_ID = statement<Customer>(
  'customers.find_by_external_id',
  () => `SELECT ${entityColumns(Customer)} FROM customers WHERE company_id = $1 AND lower(external_id) = lower($2)`,
);
/** What a customer response shows of each contact (customer.serializer.ts serializeContactSummary). */
const SUMMARY = ['id', 'externalId', 'name', 'phone', 'gender', 'salutation', 'email', 'createdAt', 'updatedAt'] as const;
export type ContactSummary = Pick<Contact, (typeof SUMMARY)[number]>;
/** The customer's contacts, oldest first, as a JSON array of summaries (for a customer row aliased `c`). */
const CONTACTS_JSON = () =>
  `(SELECT coalesce(json_agg(${entityTuple(Contact, 't', SUMMARY)} ORDER BY t.created_at ASC, t.id ASC), '[]')` +
  ` FROM contacts t WHERE t.company_id = c."companyId" AND t.customer_id = c.id)`;
/** A customer with its contacts, in one round trip. */
const FIND_WITH_CONTACTS = statement<CustomerRow>(
  'customers.find_with_contacts',
  () =>
    `SELECT c.*, ${CONTACTS_JSON()} AS contacts FROM (SELECT ${entityColumns(Customer)} FROM customers WHERE company_id = $1 AND id = $2) c`,
);
/** The same, found by external_id (case-insensitive, as the unique index has it). */
const FIND_BY_EXTERNAL_ID_WITH_CONTACTS = statement<CustomerRow>(
  'customers.find_by_external_id_with_contacts',
  () =>
    `SELECT c.*, ${CONTACTS_JSON()} AS contacts FROM (SELECT ${entityColumns(Customer)} FROM customers WHERE company_id = $1 AND lower(external_id) = lower($2)) c`,
);
/**
 * A page, oldest first, with each customer's contacts. The page is cut first, so the contacts are read for
 * its rows only, not for every row the OFFSET skips, and in one pass over the page's ids (= ANY): measured
 * with EXPLAIN ANALYZE on the bench seed, the generic plan of a subquery per row was the slowest with 100
 * customers (1.06 ms against 0.58), a join on IN (page) the slowest with 5,000 (1.89 against 0.50). The
 * company's count comes along only when the page is full (a CASE runs its subquery only when reached):
 * then the page cannot tell the total.
 */
const PAGE_WITH_CONTACTS = statement<CustomerRow & { total: string | null }>(
  'customers.page_with_contacts',
  () =>
    `WITH page AS (SELECT ${entityColumns(Customer)} FROM customers WHERE company_id = $1 ORDER BY created_at ASC, id ASC LIMIT $2 OFFSET $3)
     SELECT c.*, coalesce(k.contacts, '[]') AS contacts,
            CASE WHEN (SELECT count(*) FROM page) = $2 THEN (SELECT count(*) FROM customers WHERE company_id = $1) END AS total
       FROM page c
       LEFT JOIN (SELECT t.customer_id, json_agg(${entityTuple(Contact, 't', SUMMARY)} ORDER BY t.created_at ASC, t.id ASC) AS contacts
                    FROM contacts t WHERE t.company_id = $1 AND t.customer_id = ANY (ARRAY(SELECT id FROM page))
                   GROUP BY t.customer_id) k ON k.customer_id = c.id
      ORDER BY c."createdAt" ASC, c.id ASC`,
);
interface CustomerRow extends Customer {
  contacts: unknown[];
}
const reviveContacts = tupleReviver(Contact, SUMMARY);

/** The row is the customer: its extra columns (contacts, a page's total) are not copied away, no serializer reads them. */
function withContacts(row: CustomerRow): CustomerWithContacts {
  return { customer: row, contacts: reviveContacts(row.contacts) };
}

export interface CustomerWithContacts {
  customer: Customer;
  contacts: ContactSummary[];
}
const COUNT = statement<{ count: string }>('customers.count', 'SELECT count(*) AS count FROM customers WHERE company_id = $1');
/** The contacts of one customer, or of several (a page), oldest first. */
const CONTACTS_OF = statementFamily<'one' | 'many', Contact>(
  'customers.contacts_of',
  (n) =>
    `SELECT ${entityColumns(Contact)} FROM contacts WHERE company_id = $1 AND customer_id ${n === 'one' ? '= $2' : '= ANY ($2::uuid[])'} ORDER BY created_at ASC, id ASC`,
  ['one', 'many'],
);

export type CustomerValues = Omit<Customer, 'companyId' | 'id' | 'createdAt' | 'updatedAt'>;

@Injectable()
export class CustomersRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sql: Sql,
  ) {}

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
    return (await this.sql.first(FIND_BY_ID, [companyId, id], manager)) ?? null;
  }

  async findByExternalId(companyId: string, externalId: string, manager = this.db.manager): Promise<Customer | null> {
    // No stored external_id holds a NUL (Postgres text cannot), and Postgres would refuse it as a parameter.
    if (!isStorableText(externalId)) return null;
    return (await this.sql.first(FIND_BY_EXTERNAL_ID, [companyId, externalId], manager)) ?? null;
  }

  /** The customer with its contacts (oldest first), in one statement. */
  async findWithContacts(companyId: string, id: string): Promise<CustomerWithContacts | null> {
    const row = await this.sql.first(FIND_WITH_CONTACTS, [companyId, id]);
    return row ? withContacts(row) : null;
  }

  /** The customer with this external_id (case-insensitive) and its contacts, in one statement. */
  async findWithContactsByExternalId(companyId: string, externalId: string): Promise<CustomerWithContacts | null> {
    if (!isStorableText(externalId)) return null; // as findByExternalId
    const row = await this.sql.first(FIND_BY_EXTERNAL_ID_WITH_CONTACTS, [companyId, externalId]);
    return row ? withContacts(row) : null;
  }

  /**
   * One page, oldest first, with contacts, in one statement; the count only when the page does not tell the
   * total by itself (a full page brings it along; an empty page past the first asks for it).
   */
  async list(companyId: string, page: PageRequest): Promise<{ items: CustomerWithContacts[]; total: number }> {
    const rows = await this.sql.rows(PAGE_WITH_CONTACTS, [companyId, page.perPage, page.offset]);
    const counted = rows[0]?.total;
    if (counted != null) return { items: rows.map(withContacts), total: Number(counted) };
    if (rows.length > 0 || page.offset === 0) return { items: rows.map(withContacts), total: page.offset + rows.length };
    const { count } = await this.sql.one(COUNT, [companyId]);
    return { items: [], total: Number(count) };
  }

  /** The contacts of these customers, oldest first: the summaries a customer response embeds. */
  async contactsOf(companyId: string, customerIds: string[]): Promise<Map<string, Contact[]>> {
    const byCustomer = new Map<string, Contact[]>(customerIds.map((id) => [id, []]));
    if (customerIds.length === 0) return byCustomer;
    const one = customerIds.length === 1;
    const contacts = await this.sql.rows(CONTACTS_OF(one ? 'one' : 'many'), [companyId, one ? customerIds[0] : customerIds]);
    for (const contact of contacts) byCustomer.get(contact.customerId)?.push(contact);
    return byCustomer;
  }

  /** Runs the write; a taken external_id (case-insensitive) becomes a 409 naming the existing record. */
  private async guardExternalId(
    companyId: string,
    externalId: string | null | undefined,
    manager: EntityManager,
    write: () => Promise<unknown>,
  ) {
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
