// GET /invoices: the filter form (a plain GET form that works without JavaScript; htmx swaps only the
// results region and pushes the URL) and the results.
import { INVOICE_STATUSES } from '../../invoices/invoice-status.js';
import { Layout, type PageContext } from '../views/layout.js';
import { DEFAULT_SORT, type ListQuery, listSearch, STATUS_GROUPS } from './invoice-list.query.js';
import { enhanced, ORDER_ID, Results, type ResultsProps } from './invoice-list.results.js';

export interface ListPageProps extends ResultsProps {
  /** The name of the customer the list is filtered by. */
  customerName?: string;
}

export function InvoiceListPage({ page, props }: { page: PageContext; props: ListPageProps }) {
  const { t } = page.lang;
  return (
    <Layout page={page} title={t('invoiceList.title')}>
      <Filters page={page} query={props.query} customerName={props.customerName} />
      <Results page={page} props={props} />
    </Layout>
  );
}

function Filters({ page, query, customerName }: { page: PageContext; query: ListQuery; customerName?: string }) {
  const { t } = page.lang;
  const selected = (value: string) => query.status === value;
  return (
    <section class="card" aria-labelledby="filters-h">
      <h2 id="filters-h" safe>
        {t('invoiceList.filters')}
      </h2>
      <form class="invoice-filters" method="get" action="/invoices" role="search" {...enhanced('/invoices')} hx-trigger="submit, change">
        {query.customer ? (
          <p class="notice">
            <input type="hidden" name="customer" value={query.customer.publicId} />
            <span safe>{t('invoiceList.customerFilter', { name: customerName ?? query.customer.publicId })}</span>{' '}
            <a href={`/invoices${listSearch(query, { customer: undefined, page: 1 })}`} safe>
              {t('invoiceList.removeCustomer')}
            </a>
          </p>
        ) : (
          ''
        )}
        <div class="fields">
          <div>
            <label for="f-q" safe>
              {t('invoiceList.search')}
            </label>
            <input id="f-q" name="q" type="search" value={query.q ?? ''} maxlength="100" aria-describedby="f-q-hint" />
            <small id="f-q-hint" class="sub" safe>
              {t('invoiceList.searchHint')}
            </small>
          </div>
          <div>
            <label for="f-status" safe>
              {t('invoiceList.status')}
            </label>
            <select id="f-status" name="status">
              <option value="" selected={!query.status} safe>
                {t('invoiceList.anyStatus')}
              </option>
              <optgroup label={t('invoiceList.groups')}>
                {STATUS_GROUPS.map((group) => (
                  <option value={group} selected={selected(group)} safe>
                    {t(`invoiceList.group.${group}`)}
                  </option>
                ))}
              </optgroup>
              <optgroup label={t('invoiceList.statuses')}>
                {INVOICE_STATUSES.map((status) => (
                  <option value={status} selected={selected(status)} safe>
                    {t(`status.${status}`)}
                  </option>
                ))}
              </optgroup>
            </select>
          </div>
          <div>
            <label for="f-due-from" safe>
              {t('invoiceList.dueFrom')}
            </label>
            <input id="f-due-from" name="due_from" type="date" value={query.dueFrom ?? ''} />
          </div>
          <div>
            <label for="f-due-to" safe>
              {t('invoiceList.dueTo')}
            </label>
            <input id="f-due-to" name="due_to" type="date" value={query.dueTo ?? ''} />
          </div>
          <div class="check">
            <input id="f-overdue" name="overdue" type="checkbox" value="1" checked={query.overdue} />
            <label for="f-overdue" safe>
              {t('invoiceList.overdueOnly')}
            </label>
          </div>
        </div>
        {/* The order survives a change of filters; the page starts again at 1. */}
        <div id={ORDER_ID}>
          {query.sort !== DEFAULT_SORT.sort || query.dir !== DEFAULT_SORT.dir ? (
            <>
              <input type="hidden" name="sort" value={query.sort} />
              <input type="hidden" name="dir" value={query.dir} />
            </>
          ) : (
            ''
          )}
        </div>
        <div class="actions">
          <button type="submit" safe>
            {t('invoiceList.apply')}
          </button>
          <a href="/invoices" safe>
            {t('invoiceList.reset')}
          </a>
        </div>
      </form>
    </section>
  );
}
