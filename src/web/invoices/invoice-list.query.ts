// The query of GET /invoices and its CSV export (the URLs agreed in /work/briefs/URLS.md): read
// strictly, every bad value named; and written back, for the links of sort headers and pages.
import { parseCalendarDate } from '../../common/calendar-date.js';
import { parsePublicId } from '../../common/ids.js';
import { textProblem } from '../../common/input-rules.js';
import { INVOICE_STATUSES, type InvoiceStatus, OPEN_STATUSES } from '../../invoices/invoice-status.js';

export const STATUS_GROUPS = ['open', 'overdue', 'closed'] as const;
export type StatusGroup = (typeof STATUS_GROUPS)[number];
export const SORTS = ['number', 'customer', 'date', 'due_date', 'total', 'open_amount', 'status'] as const;
export type Sort = (typeof SORTS)[number];
export type Direction = 'asc' | 'desc';

/** Settled or never owed: nothing more to collect. */
const CLOSED_STATUSES: readonly InvoiceStatus[] = ['paid', 'written_off', 'archived', 'duplicate'];

export const PER_PAGE = 50;
const MAX_PAGE = 1_000_000;
const MAX_SEARCH = 100;

export interface ListQuery {
  q?: string;
  status?: InvoiceStatus | StatusGroup;
  /** The public id (cus-…) and its uuid. */
  customer?: { publicId: string; id: string };
  overdue: boolean;
  dueFrom?: string;
  dueTo?: string;
  sort: Sort;
  dir: Direction;
  page: number;
}

/** The default order: the newest invoices first. */
export const DEFAULT_SORT: Pick<ListQuery, 'sort' | 'dir'> = { sort: 'date', dir: 'desc' };

/** A message key of invoiceList.error with its values. */
export interface QueryError {
  key: string;
  values?: Record<string, string>;
}

export type Parsed = { ok: true; query: ListQuery } | { ok: false; errors: QueryError[]; query: ListQuery };

/**
 * The list's paths. Their query is read here alone (app.setup.ts leaves it to this parser): a search with a
 * control character is a bad filter shown on the page, not the API's JSON 400.
 */
export const LIST_PATHS: readonly string[] = ['/invoices', '/invoices/export.csv'];

const FIELDS = ['q', 'status', 'customer', 'overdue', 'due_from', 'due_to', 'sort', 'dir', 'page'] as const;

/** Reads the query; the form sends empty fields for filters not set, which count as absent. */
export function parseListQuery(raw: Record<string, unknown>): Parsed {
  const errors: QueryError[] = [];
  const value: Partial<Record<(typeof FIELDS)[number], string>> = {};
  for (const field of FIELDS) {
    const given = raw[field];
    if (given === undefined) continue;
    if (typeof given !== 'string') errors.push({ key: 'repeated', values: { name: field } });
    else if (given.trim() !== '') value[field] = given.trim();
  }
  const query: ListQuery = { ...DEFAULT_SORT, overdue: false, page: 1 };
  if (value.q !== undefined) {
    if (textProblem(value.q, 'q', 'query')) errors.push({ key: 'qControl' });
    else if (value.q.length > MAX_SEARCH) errors.push({ key: 'q' });
    else query.q = value.q;
  }
  if (value.status !== undefined) {
    if ((INVOICE_STATUSES as readonly string[]).includes(value.status) || (STATUS_GROUPS as readonly string[]).includes(value.status)) {
      query.status = value.status as ListQuery['status'];
    } else errors.push({ key: 'status' });
  }
  if (value.customer !== undefined) {
    const id = parsePublicId('cus', value.customer);
    if (id) query.customer = { publicId: `cus-${id}`, id };
    else errors.push({ key: 'customer' });
  }
  if (value.overdue !== undefined) {
    if (value.overdue === '1') query.overdue = true;
    else if (value.overdue !== '0') errors.push({ key: 'overdue' });
  }
  for (const [field, key] of [
    ['due_from', 'dueFrom'],
    ['due_to', 'dueTo'],
  ] as const) {
    if (value[field] === undefined) continue;
    const date = parseCalendarDate(value[field]);
    if (date) query[key] = date;
    else errors.push({ key: field });
  }
  if (query.dueFrom && query.dueTo && query.dueFrom > query.dueTo) errors.push({ key: 'dueRange' });
  if (value.sort !== undefined) {
    if ((SORTS as readonly string[]).includes(value.sort)) query.sort = value.sort as Sort;
    else errors.push({ key: 'sort' });
  }
  if (value.dir !== undefined) {
    if (value.dir === 'asc' || value.dir === 'desc') query.dir = value.dir;
    else errors.push({ key: 'dir' });
  }
  if (value.page !== undefined) {
    const page = /^\d{1,7}$/.test(value.page) ? Number(value.page) : 0;
    if (page >= 1 && page <= MAX_PAGE) query.page = page;
    else errors.push({ key: 'page' });
  }
  return errors.length ? { ok: false, errors, query } : { ok: true, query };
}

/** The query as URL parameters (defaults left out), with `changes` applied: for links and the export. */
export function listSearch(query: ListQuery, changes: Partial<ListQuery> = {}): string {
  const q = { ...query, ...changes };
  const params = new URLSearchParams();
  if (q.q) params.set('q', q.q);
  if (q.status) params.set('status', q.status);
  if (q.customer) params.set('customer', q.customer.publicId);
  if (q.overdue) params.set('overdue', '1');
  if (q.dueFrom) params.set('due_from', q.dueFrom);
  if (q.dueTo) params.set('due_to', q.dueTo);
  if (q.sort !== DEFAULT_SORT.sort || q.dir !== DEFAULT_SORT.dir) {
    params.set('sort', q.sort);
    params.set('dir', q.dir);
  }
  if (q.page > 1) params.set('page', String(q.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The filter as SQL parameters: the statuses that match (null: any), and the day from which an open invoice is overdue. */
export function statusesOf(status: ListQuery['status']): readonly InvoiceStatus[] | null {
  if (status === undefined) return null;
  if (status === 'open' || status === 'overdue') return OPEN_STATUSES;
  if (status === 'closed') return CLOSED_STATUSES;
  return [status];
}

/** The text searched for as a LIKE pattern: its own %, _ and \ match themselves. */
export function likePattern(text: string, where: 'prefix' | 'anywhere'): string {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return where === 'prefix' ? `${escaped}%` : `%${escaped}%`;
}
