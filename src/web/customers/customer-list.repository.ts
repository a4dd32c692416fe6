// The SQL of the customer pages: the list with each customer's open and overdue sums (aggregates in
// PostgreSQL, never invoices loaded into Node), and the newest invoices of one customer.
import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql/sql.js';
import { statement, statementFamily } from '../../database/sql/statement.js';
import type { InvoiceStatus } from '../../invoices/invoice-status.js';
import { OPEN_STATUSES } from '../../invoices/invoice-status.js';
import { containsPattern, type CustomerListQuery, type CustomerSort, PER_PAGE, type SortDirection } from './customer-list.query.js';

export interface CustomerListRow {
  id: string;
  name: string;
  customerNumber: string | null;
  externalId: string | null;
  city: string;
  openCount: number;
  /** Decimal strings. */
  openAmount: string;
  overdueCount: number;
  overdueAmount: string;
}

export interface CustomerInvoiceRow {
  id: string;
  invoiceNumber: string | null;
  status: InvoiceStatus;
  invoiceDate: string | null;
  dueDate: string | null;
  originalTotal: string;
  openAmount: string;
  /** All invoices of the customer, however many rows came back. */
  total: number;
}

interface Variant {
  sort: CustomerSort;
  dir: SortDirection;
  search: boolean;
}

// $1 company, $2 the open statuses, $3 the company's today, $4 limit, $5 offset, $6 the search pattern.
const SEARCH = '(c.name ILIKE $6 OR c.customer_number ILIKE $6 OR c.external_id ILIKE $6)';
/** An invoice is overdue from the day after its due date (as on the dashboard). */
const OVERDUE = 'i.due_date < $3::date';
const COLUMNS = 'c.id, c.name, c.customer_number AS "customerNumber", c.external_id AS "externalId", c.city';
const TEXT_SORT: Partial<Record<CustomerSort, string>> = { name: 'lower(c.name)', number: 'c.customer_number', city: 'lower(c.city)' };
const SUM_SORT: Partial<Record<CustomerSort, string>> = {
  invoices: 'coalesce(s.n, 0)',
  open: 'coalesce(s.open, 0)',
  overdue: 'coalesce(s.overdue, 0)',
};

function order({ sort, dir }: Variant): string {
  // By name: exactly the order of customers_name_idx (read forwards or backwards), so the page is read off it.
  if (sort === 'name') return `lower(c.name) ${dir.toUpperCase()}, c.id ${dir.toUpperCase()}`;
  const key = TEXT_SORT[sort] ?? SUM_SORT[sort];
  // Customers without a customer number come last either way; equal keys in name order, then stable by id.
  return `${key} ${dir.toUpperCase()} NULLS LAST, lower(c.name) ASC, c.id ASC`;
}

/**
 * Sorted by a column of the customer, the page is cut first and only its 50 customers' open invoices are
 * summed (through invoices_customer_idx). Sorted by a sum, every open invoice of the company is summed once
 * per customer in one pass, and the page cut from that.
 */
function listText(variant: Variant): string {
  const where = `c.company_id = $1${variant.search ? ` AND ${SEARCH}` : ''}`;
  if (TEXT_SORT[variant.sort]) {
    return `SELECT ${COLUMNS}, s.n AS "openCount", s.open::text AS "openAmount", s.n_overdue AS "overdueCount", s.overdue::text AS "overdueAmount"
  FROM (SELECT c.* FROM customers c WHERE ${where} ORDER BY ${order(variant)} LIMIT $4 OFFSET $5) c
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS n, coalesce(sum(i.open_amount), 0) AS open,
           count(*) FILTER (WHERE ${OVERDUE})::int AS n_overdue, coalesce(sum(i.open_amount) FILTER (WHERE ${OVERDUE}), 0) AS overdue
      FROM invoices i WHERE i.company_id = $1 AND i.customer_id = c.id AND i.status = ANY($2::text[])) s
 ORDER BY ${order(variant)}`;
  }
  return `WITH s AS (
    SELECT i.customer_id, count(*)::int AS n, sum(i.open_amount) AS open,
           count(*) FILTER (WHERE ${OVERDUE})::int AS n_overdue, coalesce(sum(i.open_amount) FILTER (WHERE ${OVERDUE}), 0) AS overdue
      FROM invoices i WHERE i.company_id = $1 AND i.status = ANY($2::text[])
     GROUP BY i.customer_id)
SELECT ${COLUMNS}, coalesce(s.n, 0) AS "openCount", coalesce(s.open, 0)::text AS "openAmount",
       coalesce(s.n_overdue, 0) AS "overdueCount", coalesce(s.overdue, 0)::text AS "overdueAmount"
  FROM customers c LEFT JOIN s ON s.customer_id = c.id
 WHERE ${where}
 ORDER BY ${order(variant)} LIMIT $4 OFFSET $5`;
}

const LIST = statementFamily<Variant, CustomerListRow>('web.customer_list', listText, [
  { sort: 'name', dir: 'asc', search: false },
  { sort: 'name', dir: 'desc', search: true },
  { sort: 'number', dir: 'desc', search: true },
  { sort: 'city', dir: 'asc', search: false },
  { sort: 'open', dir: 'desc', search: false },
  { sort: 'overdue', dir: 'asc', search: true },
  { sort: 'invoices', dir: 'desc', search: false },
]);
const COUNT = statementFamily<boolean, { count: number }>(
  'web.customer_list_count',
  (search) =>
    `SELECT count(*)::int AS count FROM customers c WHERE c.company_id = $1${search ? ` AND ${SEARCH.replaceAll('$6', '$2')}` : ''}`,
  [false, true],
);
// Undated invoices (drafts not yet issued) are the newest.
const INVOICES_OF = statement<CustomerInvoiceRow>(
  'web.customer_invoices',
  `SELECT i.id, i.invoice_number AS "invoiceNumber", i.status, i.invoice_date::text AS "invoiceDate", i.due_date::text AS "dueDate",
          i.original_total::text AS "originalTotal", i.open_amount::text AS "openAmount", count(*) OVER ()::int AS total
     FROM invoices i WHERE i.company_id = $1 AND i.customer_id = $2
    ORDER BY i.invoice_date DESC NULLS FIRST, i.created_at DESC, i.id DESC LIMIT $3`,
);

@Injectable()
export class CustomerListRepository {
  constructor(private readonly sql: Sql) {}

  /** One page of the company's customers as `query` asks, and how many customers match it. */
  async page(companyId: string, query: CustomerListQuery, today: string): Promise<{ rows: CustomerListRow[]; total: number }> {
    const search = query.q !== '';
    const pattern = search ? [containsPattern(query.q)] : [];
    const [rows, { count }] = await Promise.all([
      this.sql.rows(LIST({ sort: query.sort, dir: query.dir, search }), [
        companyId,
        OPEN_STATUSES,
        today,
        PER_PAGE,
        (query.page - 1) * PER_PAGE,
        ...pattern,
      ]),
      this.sql.one(COUNT(search), [companyId, ...pattern]),
    ]);
    return { rows, total: count };
  }

  /** The customer's newest `limit` invoices, each row with the number of all its invoices. */
  async invoicesOf(companyId: string, customerId: string, limit: number): Promise<CustomerInvoiceRow[]> {
    return this.sql.rows(INVOICES_OF, [companyId, customerId, limit]);
  }
}
