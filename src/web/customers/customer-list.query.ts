// The query of the customer list (/customers?q=&sort=&dir=&page=), read strictly: a value that is not one
// of the list's is named back to the user (a 400 page), never guessed at and never passed to SQL as text.
import { isStorableText } from '../../common/text.js';

export const CUSTOMER_SORTS = ['name', 'number', 'city', 'invoices', 'open', 'overdue'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
export type SortDirection = 'asc' | 'desc';

/** Columns of the customer record sort by text; the others by the customer's open invoices, largest first. */
export const FIRST_DIRECTION: Record<CustomerSort, SortDirection> = {
  name: 'asc',
  number: 'asc',
  city: 'asc',
  invoices: 'desc',
  open: 'desc',
  overdue: 'desc',
};

export const PER_PAGE = 50;
export const MAX_SEARCH = 100;
/** Far beyond any real list (50 × 100,000 customers), and small enough for the offset to stay an integer. */
const MAX_PAGE = 100_000;

export interface CustomerListQuery {
  q: string;
  sort: CustomerSort;
  dir: SortDirection;
  page: number;
}

export type QueryProblem = 'q' | 'sort' | 'dir' | 'page';

export const DEFAULT_QUERY: CustomerListQuery = { q: '', sort: 'name', dir: 'asc', page: 1 };

/** The query as the list uses it, and what was wrong with it (each wrong value replaced by its default). */
export function parseCustomerListQuery(raw: Record<string, unknown>): { query: CustomerListQuery; problems: QueryProblem[] } {
  const problems: QueryProblem[] = [];
  const query: CustomerListQuery = { ...DEFAULT_QUERY };
  if (raw.q !== undefined) {
    const q = typeof raw.q === 'string' ? raw.q.trim() : undefined;
    if (q === undefined || q.length > MAX_SEARCH || !isStorableText(q)) problems.push('q');
    else query.q = q;
  }
  if (raw.sort !== undefined && raw.sort !== '') {
    if (CUSTOMER_SORTS.includes(raw.sort as CustomerSort)) query.sort = raw.sort as CustomerSort;
    else problems.push('sort');
  }
  query.dir = FIRST_DIRECTION[query.sort];
  if (raw.dir !== undefined && raw.dir !== '') {
    if (raw.dir === 'asc' || raw.dir === 'desc') query.dir = raw.dir;
    else problems.push('dir');
  }
  if (raw.page !== undefined && raw.page !== '') {
    const page = typeof raw.page === 'string' && /^\d{1,6}$/.test(raw.page) ? Number(raw.page) : NaN;
    if (page >= 1 && page <= MAX_PAGE) query.page = page;
    else problems.push('page');
  }
  return { query, problems };
}

/** The list's URL for a query; parameters at their default are left out, so links stay short. */
export function customerListHref(query: CustomerListQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.sort !== DEFAULT_QUERY.sort || query.dir !== FIRST_DIRECTION[query.sort]) {
    params.set('sort', query.sort);
    params.set('dir', query.dir);
  }
  if (query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text ? `/customers?${text}` : '/customers';
}

/** A LIKE pattern that finds `text` anywhere, its own % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
