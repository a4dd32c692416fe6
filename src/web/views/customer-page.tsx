// The customer page: address and details, contacts, open and overdue sums, its newest invoices.
import { toPublicId } from '../../common/ids.js';
import type { CustomerWithContacts } from '../../customers/customers.service.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import type { Figure } from '../dashboard/dashboard.repository.js';
import { Layout, type PageContext } from './layout.js';

export interface CustomerPageProps {
  record: CustomerWithContacts;
  sums: { open: Figure; overdue: Figure };
  invoices: Invoice[];
  totalInvoices: number;
}

export function CustomerPage({ page, props }: { page: PageContext; props: CustomerPageProps }) {
  const { t, money, date } = page.lang;
  const { customer, contacts } = props.record;
  const address = [
    customer.addressLine1,
    customer.addressLine2,
    customer.addressLine3,
    customer.addressLine4,
    `${customer.zip} ${customer.city}`,
    customer.countryCode,
  ];
  return (
    <Layout page={page} title={t('customer.title', { name: customer.name })}>
      <div class="grid">
        <section class="card" aria-labelledby="address-h">
          <h2 id="address-h" safe>
            {t('customer.address')}
          </h2>
          <address>
            {address
              .filter((line): line is string => Boolean(line))
              .map((line) => (
                <>
                  <span safe>{line}</span>
                  <br />
                </>
              ))}
          </address>
        </section>
        <section class="card" aria-labelledby="details-h">
          <h2 id="details-h" safe>
            {t('customer.details')}
          </h2>
          <dl class="facts">
            <dt safe>{t('customer.customerNumber')}</dt>
            <dd safe>{customer.customerNumber ?? t('none')}</dd>
            <dt safe>{t('customer.externalId')}</dt>
            <dd safe>{customer.externalId ?? t('none')}</dd>
            <dt safe>{t('customer.phone')}</dt>
            <dd safe>{customer.phone ?? t('none')}</dd>
          </dl>
        </section>
        <section class="card" aria-labelledby="sums-h">
          <h2 id="sums-h" safe>
            {t('customer.sums')}
          </h2>
          <dl class="facts">
            <dt safe>{t('customer.open')}</dt>
            <dd data-figure="open" safe>
              {`${money(props.sums.open.amount)} (${t('dashboard.invoices', { count: props.sums.open.count })})`}
            </dd>
            <dt safe>{t('customer.overdue')}</dt>
            <dd data-figure="overdue" safe>
              {`${money(props.sums.overdue.amount)} (${t('dashboard.invoices', { count: props.sums.overdue.count })})`}
            </dd>
          </dl>
        </section>
      </div>
      <section class="card" aria-labelledby="contacts-h">
        <h2 id="contacts-h" safe>
          {t('customer.contacts')}
        </h2>
        {contacts.length === 0 ? (
          <p safe>{t('customer.noContacts')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col" safe>
                  {t('customer.name')}
                </th>
                <th scope="col" safe>
                  {t('customer.email')}
                </th>
                <th scope="col" safe>
                  {t('customer.phone')}
                </th>
              </tr>
            </thead>
            <tbody>
              {contacts.map((c) => (
                <tr>
                  <td safe>{c.name}</td>
                  <td safe>{c.email ?? ''}</td>
                  <td safe>{c.phone ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section class="card" aria-labelledby="invoices-h">
        <h2 id="invoices-h" safe>
          {t('customer.invoices')}
        </h2>
        {props.invoices.length === 0 ? (
          <p safe>{t('customer.noInvoices')}</p>
        ) : (
          <>
            {props.totalInvoices > props.invoices.length ? (
              <p class="sub" safe>
                {t('customer.moreInvoices', { shown: props.invoices.length, total: props.totalInvoices })}
              </p>
            ) : (
              ''
            )}
            <table>
              <thead>
                <tr>
                  <th scope="col" safe>
                    {t('customer.number')}
                  </th>
                  <th scope="col" safe>
                    {t('invoice.status')}
                  </th>
                  <th scope="col" safe>
                    {t('invoice.dueDate')}
                  </th>
                  <th scope="col" class="num" safe>
                    {t('invoice.open')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.invoices.map((invoice) => (
                  <tr>
                    <td>
                      <a href={`/invoices/${toPublicId('inv', invoice.id)}`} safe>
                        {invoice.invoiceNumber ?? t('invoice.noNumber')}
                      </a>
                    </td>
                    <td safe>{t(`status.${invoice.status}`)}</td>
                    <td safe>{date(invoice.dueDate)}</td>
                    <td class="num" safe>
                      {money(invoice.openAmount)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>
    </Layout>
  );
}
