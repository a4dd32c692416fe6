// The results region of the invoice list (#results): what htmx swaps when a filter, a sort header or a
// page link changes. Plain links and a GET form first; htmx only saves the full page load.
import { toPublicId } from '../../common/ids.js';
import type { PageContext } from '../views/layout.js';
import type { ListRow } from './invoice-list.repository.js';
import { type ListQuery, listSearch, PER_PAGE, type QueryError, type Sort, SORTS } from './invoice-list.query.js';

export const RESULTS_ID = 'results';
/** The form's hidden sort fields: swapped along with the results, so a filter changed after a sort keeps it. */
export const ORDER_ID = 'list-order';

/**
 * htmx on a link or the filter form: fetch the list (the whole page, so that the back button's history
 * request and a plain load get the same answer), swap in its results region and order fields, push the URL.
 */
export function enhanced(url: string): Record<string, string> {
  return {
    'hx-get': url,
    'hx-target': `#${RESULTS_ID}`,
    'hx-select': `#${RESULTS_ID}`,
    'hx-swap': 'outerHTML',
    'hx-select-oob': `#${ORDER_ID}`,
    'hx-push-url': 'true',
  };
}

export interface ResultsProps {
  query: ListQuery;
  /** Absent when the query was refused. */
  found?: { rows: ListRow[]; total: number };
  errors?: QueryError[];
}

const NUMERIC: readonly Sort[] = ['total', 'open_amount'];

export function Results({ page, props }: { page: PageContext; props: ResultsProps }) {
  const { t } = page.lang;
  return (
    <section id={RESULTS_ID} class="card" aria-labelledby="results-h">
      <h2 id="results-h" safe>
        {t('invoiceList.results')}
      </h2>
      {props.errors ? <Errors page={page} errors={props.errors} /> : ''}
      {props.found ? <Found page={page} query={props.query} found={props.found} /> : ''}
    </section>
  );
}

function Errors({ page, errors }: { page: PageContext; errors: QueryError[] }) {
  const { t } = page.lang;
  return (
    <div class="error" role="alert" id="list-errors">
      <p safe>{t('invoiceList.invalid')}</p>
      <ul>
        {errors.map((e) => (
          <li safe>{t(`invoiceList.error.${e.key}`, e.values)}</li>
        ))}
      </ul>
    </div>
  );
}

function Found({ page, query, found }: { page: PageContext; query: ListQuery; found: { rows: ListRow[]; total: number } }) {
  const { t } = page.lang;
  const pages = Math.max(1, Math.ceil(found.total / PER_PAGE));
  return (
    <>
      <p class="summary" role="status" data-total={String(found.total)}>
        <span safe>{t('invoiceList.total', { count: found.total })}</span>
        {' · '}
        <span safe>{t('invoiceList.pageOf', { page: query.page, pages })}</span>
        {' · '}
        <a href={`/invoices/export.csv${listSearch(query, { page: 1 })}`} safe>
          {t('invoiceList.export')}
        </a>
      </p>
      {found.rows.length === 0 ? (
        <p safe>{t(query.page > 1 && found.total > 0 ? 'invoiceList.beyond' : 'invoiceList.none')}</p>
      ) : (
        <div class="scroll">
          <table class="invoice-list">
            <thead>
              <tr>
                {SORTS.map((column) => (
                  <SortHeader page={page} query={query} column={column} />
                ))}
              </tr>
            </thead>
            <tbody>
              {found.rows.map((row) => (
                <Row page={page} row={row} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} query={query} pages={pages} />
    </>
  );
}

function SortHeader({ page, query, column }: { page: PageContext; query: ListQuery; column: Sort }) {
  const { t } = page.lang;
  const current = query.sort === column;
  const dir = current && query.dir === 'asc' ? 'desc' : 'asc';
  const href = `/invoices${listSearch(query, { sort: column, dir, page: 1 })}`;
  return (
    <th
      scope="col"
      class={NUMERIC.includes(column) ? 'num' : undefined}
      aria-sort={current ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      <a href={href} {...enhanced(href)} safe>
        {t(`invoiceList.column.${column}`)}
      </a>
    </th>
  );
}

function Row({ page, row }: { page: PageContext; row: ListRow }) {
  const { t, money, date } = page.lang;
  return (
    <tr data-invoice={toPublicId('inv', row.id)}>
      <td>
        <a href={`/invoices/${toPublicId('inv', row.id)}`} safe>
          {row.invoiceNumber ?? t('invoiceList.noNumber')}
        </a>
        {row.externalId ? (
          <div class="sub" safe>
            {t('invoiceList.externalId', { id: row.externalId })}
          </div>
        ) : (
          ''
        )}
      </td>
      <td>
        <a href={`/customers/${toPublicId('cus', row.customerId)}`} safe>
          {row.customerName}
        </a>
      </td>
      <td safe>{date(row.invoiceDate)}</td>
      <td safe>{date(row.dueDate)}</td>
      <td class="num" safe>
        {money(row.total)}
      </td>
      <td class="num" safe>
        {money(row.openAmount)}
      </td>
      <td>
        <span class="status" safe>
          {t(`status.${row.status}`)}
        </span>
      </td>
    </tr>
  );
}

function Pagination({ page, query, pages }: { page: PageContext; query: ListQuery; pages: number }) {
  const { t } = page.lang;
  if (pages <= 1 && query.page === 1) return '';
  const link = (to: number, key: string, rel?: string) => {
    const href = `/invoices${listSearch(query, { page: to })}`;
    return (
      <li>
        <a href={href} rel={rel} {...enhanced(href)} safe>
          {t(key)}
        </a>
      </li>
    );
  };
  return (
    <nav class="pages" aria-label={t('invoiceList.pagination')}>
      <ul>
        {query.page > pages ? link(1, 'invoiceList.firstPage') : ''}
        {query.page > 1 && query.page <= pages ? link(query.page - 1, 'invoiceList.previous', 'prev') : ''}
        <li safe>{t('invoiceList.pageOf', { page: query.page, pages })}</li>
        {query.page < pages ? link(query.page + 1, 'invoiceList.next', 'next') : ''}
      </ul>
    </nav>
  );
}
