// The customer list: a plain GET search form and sortable, paginated results. htmx (when it runs) swaps
// only the results for a search, a sort or a page, and keeps the URL in step; without it, the same links
// and form load whole pages.
import { toPublicId } from '../../common/ids.js';
import { Layout, type PageContext } from '../views/layout.js';
import {
  CUSTOMER_SORTS,
  type CustomerListQuery,
  type CustomerSort,
  customerListHref,
  DEFAULT_QUERY,
  FIRST_DIRECTION,
  MAX_SEARCH,
  PER_PAGE,
  type QueryProblem,
} from './customer-list.query.js';
import type { CustomerListRow } from './customer-list.repository.js';

export interface CustomerListProps {
  query: CustomerListQuery;
  problems: QueryProblem[];
  rows: CustomerListRow[];
  total: number;
}

const RESULTS = 'customer-results';
const NUMERIC: ReadonlySet<CustomerSort> = new Set(['invoices', 'open', 'overdue']);

/** What an htmx link or form inside the list does: fetch the list and swap the results in place. */
const swapResults = (href: string) => ({
  'hx-get': href,
  'hx-target': `#${RESULTS}`,
  'hx-select': `#${RESULTS}`,
  'hx-swap': 'outerHTML',
  'hx-push-url': 'true',
});

export function CustomerListPage({ page, props }: { page: PageContext; props: CustomerListProps }) {
  const { t } = page.lang;
  const { query } = props;
  return (
    <Layout page={page} title={t('customers.list.title')}>
      <form
        id="customer-search"
        class="list-search"
        role="search"
        method="get"
        action="/customers"
        hx-get="/customers"
        hx-trigger="submit, input delay:300ms"
        hx-target={`#${RESULTS}`}
        hx-select={`#${RESULTS}`}
        hx-swap="outerHTML"
        hx-replace-url="true"
      >
        <label for="q" safe>
          {t('customers.list.search')}
        </label>
        <input id="q" name="q" type="search" value={query.q} maxlength={String(MAX_SEARCH)} autocomplete="off" aria-describedby="q-hint" />
        <button type="submit" safe>
          {t('customers.list.submit')}
        </button>
        <span id="q-hint" class="sub" safe>
          {t('customers.list.searchHint')}
        </span>
      </form>
      <Results page={page} props={props} />
    </Layout>
  );
}

function Results({ page, props }: { page: PageContext; props: CustomerListProps }) {
  const { t, count } = page.lang;
  const { query, total } = props;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const sorted = query.sort !== DEFAULT_QUERY.sort || query.dir !== FIRST_DIRECTION[query.sort];
  return (
    <div id={RESULTS}>
      {/* The search form sends the sort along (these belong to it), so a new search keeps the order. */}
      {sorted ? (
        <>
          <input type="hidden" name="sort" value={query.sort} form="customer-search" />
          <input type="hidden" name="dir" value={query.dir} form="customer-search" />
        </>
      ) : (
        ''
      )}
      {props.problems.map((problem) => (
        <p class="error" role="alert" safe>
          {t(`customers.list.invalid.${problem}`, { max: MAX_SEARCH })}
        </p>
      ))}
      <p class="sub" role="status" data-count={String(total)} safe>
        {query.q ? t('customers.list.foundFor', { count: total, q: query.q }) : t('customers.list.found', { count: total })}
      </p>
      {props.rows.length === 0 ? (
        <Empty page={page} props={props} />
      ) : (
        <section class="card" aria-label={t('customers.list.title')}>
          <table class="list">
            <thead>
              <tr>
                {CUSTOMER_SORTS.map((column) => (
                  <SortHeader page={page} query={query} column={column} />
                ))}
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr data-customer={toPublicId('cus', row.id)}>
                  <td>
                    <a href={`/customers/${toPublicId('cus', row.id)}`} safe>
                      {row.name}
                    </a>
                  </td>
                  <td safe>{row.customerNumber ?? t('none')}</td>
                  <td safe>{row.city}</td>
                  <td class="num" data-figure="invoices" safe>
                    {count(row.openCount)}
                  </td>
                  <td class="num" data-figure="open" safe>
                    {page.lang.money(row.openAmount)}
                  </td>
                  <td class={Number(row.overdueAmount) > 0 ? 'num overdue' : 'num'} data-figure="overdue" safe>
                    {page.lang.money(row.overdueAmount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {pages > 1 && query.page <= pages ? <Pager page={page} query={query} pages={pages} /> : ''}
    </div>
  );
}

function SortHeader({ page, query, column }: { page: PageContext; query: CustomerListQuery; column: CustomerSort }) {
  const { t } = page.lang;
  const current = query.sort === column;
  const dir = current ? (query.dir === 'asc' ? 'desc' : 'asc') : FIRST_DIRECTION[column];
  const href = customerListHref({ ...query, sort: column, dir, page: 1 });
  const label = t(`customers.list.${column}`);
  return (
    <th
      scope="col"
      class={NUMERIC.has(column) ? 'num' : undefined}
      aria-sort={current ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      <a href={href} class="sort" title={t('customers.list.sortBy', { column: label })} {...swapResults(href)}>
        <span safe>{label}</span>
        {current ? <span aria-hidden="true">{query.dir === 'asc' ? ' ▲' : ' ▼'}</span> : ''}
      </a>
    </th>
  );
}

function Pager({ page, query, pages }: { page: PageContext; query: CustomerListQuery; pages: number }) {
  const { t } = page.lang;
  const link = (to: number, rel: 'prev' | 'next', key: 'previous' | 'next') => {
    const href = customerListHref({ ...query, page: to });
    return (
      <a href={href} rel={rel} {...swapResults(href)} safe>
        {t(`customers.list.${key}`)}
      </a>
    );
  };
  return (
    <nav class="pager" aria-label={t('customers.list.pages')}>
      {query.page > 1 ? link(query.page - 1, 'prev', 'previous') : ''}
      <span aria-current="page" safe>
        {t('customers.list.page', { page: page.lang.count(query.page), pages: page.lang.count(pages) })}
      </span>
      {query.page < pages ? link(query.page + 1, 'next', 'next') : ''}
    </nav>
  );
}

function Empty({ page, props }: { page: PageContext; props: CustomerListProps }) {
  const { t } = page.lang;
  const { query, total } = props;
  if (total > 0) {
    // A page past the end (the list shrank since the link was made).
    const href = customerListHref({ ...query, page: 1 });
    return (
      <p>
        <span safe>{t('customers.list.beyond')}</span>{' '}
        <a href={href} {...swapResults(href)} safe>
          {t('customers.list.first')}
        </a>
      </p>
    );
  }
  if (!query.q) return <p safe>{t('customers.list.none')}</p>;
  return (
    <p>
      <span safe>{t('customers.list.noneFor', { q: query.q })}</span>{' '}
      {/* A whole page: the search field above the results is emptied too. */}
      <a href="/customers" safe>
        {t('customers.list.reset')}
      </a>
    </p>
  );
}
