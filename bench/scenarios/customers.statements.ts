// The SQL the service runs to read customers, as captured from its repositories (customers.capture.ts),
// and what the bare server and the ablation runs need to run it themselves: no TypeORM at run time.
import type { Contact } from '../../src/contacts/contact.entity.js';
import type { Customer } from '../../src/customers/customer.entity.js';

/** Passed to the server processes as JSON. */
export interface CustomerStatements {
  /** CredentialsRepository.findActiveToken: $1 = token hash. */
  token: string;
  /** CustomersRepository.findById: $1 = company, $2 = customer. */
  customer: string;
  /** CustomersRepository.list: the page (ends in LIMIT $2 OFFSET $3), then the count; $1 = company. */
  page: string;
  count: string;
  /** CustomersRepository.contactsOf for one customer ($2) and for several ($2: an array). */
  contactsOfOne: string;
  contactsOfTwo: string;
  /** [result column alias, entity property] as TypeORM maps them. */
  customerFields: Array<[string, string]>;
  contactFields: Array<[string, string]>;
}

const PAGE_TAIL = / LIMIT \$2 OFFSET \$3$/;
const IN_TWO = /= ANY \(\$2::uuid\[\]\)/;

/** Checks the shapes the helpers below rely on, so a change in TypeORM's SQL fails loudly. */
export function assertShapes(s: CustomerStatements): void {
  if (!PAGE_TAIL.test(s.page)) throw new Error(`The page query no longer ends in LIMIT/OFFSET: ${s.page}`);
  if (!IN_TWO.test(s.contactsOfTwo)) throw new Error(`The contacts query no longer takes an array: ${s.contactsOfTwo}`);
}

export const pageSql = (s: CustomerStatements, limit: number, offset: number) =>
  s.page.replace(PAGE_TAIL, ` LIMIT ${limit}${offset > 0 ? ` OFFSET ${offset}` : ''}`);

export const contactsSql = (s: CustomerStatements, count: number) =>
  count === 1
    ? s.contactsOfOne
    : s.contactsOfTwo.replace(IN_TWO, `IN (${Array.from({ length: count }, (_, i) => `$${i + 2}`).join(', ')})`);

/** The service's list skips the count when the page itself tells the total. */
export const countNeeded = (rows: number, perPage: number, offset: number) => rows === perPage || (rows === 0 && offset > 0);

/** A result row as pg returns it: column alias to value. */
export type Row = Record<string, unknown>;

/** The columns of the `token` statement. */
export interface TokenRow {
  id: string;
  company_id: string;
  name: string;
  time_zone: string;
}

/** The single column of the `count` statement, under whatever name TypeORM gave it. */
export const countOf = (row: Row) => Number(Object.values(row)[0]);

function hydrate<T>(fields: Array<[string, string]>, row: Row): T {
  // The service selects its columns under their property names: the row is the entity already.
  if (fields.every(([column, property]) => column === property)) return row as T;
  const entity: Row = {};
  for (const [column, property] of fields) entity[property] = row[column];
  return entity as T;
}

export const toCustomer = (s: CustomerStatements, row: Row) => hydrate<Customer>(s.customerFields, row);
export const toContact = (s: CustomerStatements, row: Row) => hydrate<Contact>(s.contactFields, row);
