// Invoices blocked for dunning: the block's reason and end date, each linking to its invoice.
import { toPublicId } from '../../../common/ids.js';
import type { PageMeta } from '../../../common/pagination.js';
import { Layout, type PageContext } from '../../views/layout.js';
import type { BlockedInvoice } from '../exceptions.repository.js';
import { Notices, Pager, SectionNav } from './exception-parts.js';
import type { Notice } from '../exception-pages.js';

export function BlockedPage({
  page,
  invoices,
  meta,
  notices,
}: {
  page: PageContext;
  invoices: BlockedInvoice[];
  meta: PageMeta;
  notices: Notice[];
}) {
  const { t, money, date } = page.lang;
  return (
    <Layout page={page} title={t('exceptions.blocked.title')}>
      <SectionNav page={page} />
      <Notices page={page} notices={notices} />
      <section class="card" aria-labelledby="blocked-h">
        <h2 id="blocked-h" safe>
          {t('exceptions.blocked.intro')}
        </h2>
        {invoices.length === 0 ? (
          <p safe>{t('exceptions.blocked.none')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col" safe>
                  {t('exceptions.blocked.invoice')}
                </th>
                <th scope="col" safe>
                  {t('exceptions.blocked.customer')}
                </th>
                <th scope="col" safe>
                  {t('exceptions.blocked.status')}
                </th>
                <th scope="col" class="num" safe>
                  {t('exceptions.blocked.open')}
                </th>
                <th scope="col" safe>
                  {t('exceptions.blocked.reason')}
                </th>
                <th scope="col" safe>
                  {t('exceptions.blocked.until')}
                </th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((invoice) => (
                <tr data-invoice={toPublicId('inv', invoice.id)}>
                  <td>
                    <a href={`/invoices/${toPublicId('inv', invoice.id)}`} safe>
                      {invoice.invoiceNumber ?? t('exceptions.shipments.noNumber')}
                    </a>
                  </td>
                  <td>
                    <a href={`/customers/${toPublicId('cus', invoice.customerId)}`} safe>
                      {invoice.customerName}
                    </a>
                  </td>
                  <td safe>{t(`status.${invoice.status}`)}</td>
                  <td class="num" safe>
                    {money(invoice.openAmount)}
                  </td>
                  <td safe>{invoice.reason ?? t('exceptions.blocked.customerStopped')}</td>
                  <td safe>{invoice.until ? date(invoice.until) : t('exceptions.blocked.untilLifted')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={page} meta={meta} path="/exceptions/blocked" query={{}} />
      </section>
    </Layout>
  );
}
