// The statements the service runs to read customers, with the text TypeORM generates for them (aliases
// included), and the row → entity mapping; for the bare baseline server and the ablation runs.
import type { Contact } from '../../src/contacts/contact.entity.js';
import type { Customer } from '../../src/customers/customer.entity.js';

/** CredentialsRepository.findActiveToken */
export const TOKEN_SQL = `SELECT t.id, c.id AS company_id, c.name, c.time_zone
         FROM api_tokens t JOIN companies c ON c.id = t.company_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL`;

const CUSTOMER_COLUMNS = [
  'company_id', 'id', 'external_id', 'customer_number', 'additional_number', 'name', 'phone', 'address_line1',
  'address_line2', 'address_line3', 'address_line4', 'zip', 'city', 'country_code', 'stop_automatic_reminders',
  'shipping_mode', 'customer_group_id', 'note', 'created_at', 'updated_at',
];
const CONTACT_COLUMNS = [
  'company_id', 'id', 'customer_id', 'external_id', 'name', 'phone', 'gender', 'salutation', 'email', 'created_at', 'updated_at',
];
const select = (alias: string, columns: string[]) => columns.map((c) => `"${alias}"."${c}" AS "${alias}_${c}"`).join(', ');

/** CustomersRepository.findById (findOneBy) */
export const CUSTOMER_SQL = `SELECT ${select('Customer', CUSTOMER_COLUMNS)} FROM "customers" "Customer" WHERE (("Customer"."company_id" = $1) AND ("Customer"."id" = $2)) LIMIT 1`;

/** CustomersRepository.list (findAndCount): the page, then the count on the same connection. */
export const PAGE_SQL = (limit: number, offset: number) =>
  `SELECT ${select('Customer', CUSTOMER_COLUMNS)} FROM "customers" "Customer" WHERE (("Customer"."company_id" = $1)) ORDER BY "Customer"."created_at" ASC, "Customer"."id" ASC LIMIT ${limit}${offset > 0 ? ` OFFSET ${offset}` : ''}`;
export const COUNT_SQL = `SELECT COUNT(1) AS "cnt" FROM "customers" "Customer" WHERE (("Customer"."company_id" = $1))`;

/** TypeORM's findAndCount skips the count when the page itself tells the total. */
export const countNeeded = (rows: number, perPage: number, offset: number) => rows === perPage || (rows === 0 && offset > 0);

/** CustomersRepository.contactsOf */
export const CONTACTS_SQL = (count: number) =>
  `SELECT ${select('Contact', CONTACT_COLUMNS)} FROM "contacts" "Contact" WHERE (("Contact"."company_id" = $1) AND ("Contact"."customer_id" ${
    count === 1 ? '= $2' : `IN (${Array.from({ length: count }, (_, i) => `$${i + 2}`).join(', ')})`
  })) ORDER BY "Contact"."created_at" ASC, "Contact"."id" ASC`;

type Row = Record<string, unknown>;

/** column → [alias_column, entityProperty], computed once. */
const mapping = (alias: string, columns: string[]) =>
  columns.map((c) => [`${alias}_${c}`, c.replace(/_(\w)/g, (_, ch: string) => ch.toUpperCase())] as const);
const CUSTOMER_FIELDS = mapping('Customer', CUSTOMER_COLUMNS);
const CONTACT_FIELDS = mapping('Contact', CONTACT_COLUMNS);

function hydrate<T>(fields: ReadonlyArray<readonly [string, string]>, row: Row): T {
  const entity: Row = {};
  for (const [column, property] of fields) entity[property] = row[column];
  return entity as T;
}

export const toCustomer = (row: Row) => hydrate<Customer>(CUSTOMER_FIELDS, row);
export const toContact = (row: Row) => hydrate<Contact>(CONTACT_FIELDS, row);
