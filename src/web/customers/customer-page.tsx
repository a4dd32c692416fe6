// The customer page: address and details, open and overdue sums, the settings form, contacts and the
// customer's newest invoices with the way to all of them.
import { toPublicId } from '../../common/ids.js';
import type { CustomerWithContacts } from '../../customers/customers.service.js';
import type { Figure } from '../dashboard/dashboard.repository.js';
import { Layout, type PageContext } from '../views/layout.js';
import type { CustomerInvoiceRow } from './customer-list.repository.js';
import { CustomerSettingsForm } from './customer-settings.form.js';
import type { SettingsOutcome } from './customer-settings.js';

export interface CustomerPageProps {
  record: CustomerWithContacts;
  sums: { open: Figure; overdue: Figure };
  invoices: CustomerInvoiceRow[];
  settings?: SettingsOutcome;
}

export function CustomerPage({ page, props }: { page: PageContext; props: CustomerPageProps }) {
  const { t, money } = page.lang;
  const { customer } = props.record;
  const publicId = toPublicId('cus', customer.id);
  const address = [
    customer.addressLine1,
    customer.addressLine2,
    customer.addressLine3,
    customer.addressLine4,
    `${customer.zip} ${customer.city}`,
    customer.countryCode,
  ];
  return (
    <Layout page={page} title={customer.name}>
      <p class="sub" safe>
        {[t('customers.page.kind'), customer.customerNumber].filter(Boolean).join(' · ')}
      </p>
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
      <CustomerSettingsForm
        page={page}
        props={{
          action: `/customers/${publicId}/settings`,
          values: { stopAutomaticReminders: customer.stopAutomaticReminders, shippingMode: customer.shippingMode },
          outcome: props.settings,
        }}
      />
      <Contacts page={page} props={props} />
      <Invoices page={page} props={props} publicId={publicId} />
    </Layout>
  );
}

function Contacts({ page, props }: { page: PageContext; props: CustomerPageProps }) {
  const { t } = page.lang;
  const { contacts } = props.record;
  return (
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
  );
}

function Invoices({ page, props, publicId }: { page: PageContext; props: CustomerPageProps; publicId: string }) {
  const { t, money, date } = page.lang;
  const { invoices } = props;
  const total = invoices[0]?.total ?? 0;
  return (
    <section class="card" aria-labelledby="invoices-h">
      <h2 id="invoices-h" safe>
        {t('customer.invoices')}
      </h2>
      {invoices.length === 0 ? (
        <p safe>{t('customer.noInvoices')}</p>
      ) : (
        <>
          <p class="sub">
            {total > invoices.length ? (
              <>
                <span safe>{t('customers.page.newest', { shown: invoices.length, total })}</span>{' '}
              </>
            ) : (
              ''
            )}
            <a href={`/invoices?customer=${publicId}`} safe>
              {t('customers.page.allInvoices')}
            </a>
          </p>
          <table>
            <thead>
              <tr>
                <th scope="col" safe>
                  {t('customer.number')}
                </th>
                <th scope="col" safe>
                  {t('customers.page.invoiceDate')}
                </th>
                <th scope="col" safe>
                  {t('invoice.status')}
                </th>
                <th scope="col" safe>
                  {t('invoice.dueDate')}
                </th>
                <th scope="col" class="num" safe>
                  {t('customers.page.total')}
                </th>
                <th scope="col" class="num" safe>
                  {t('invoice.open')}
                </th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((invoice) => (
                <tr>
                  <td>
                    <a href={`/invoices/${toPublicId('inv', invoice.id)}`} safe>
                      {invoice.invoiceNumber ?? t('invoice.noNumber')}
                    </a>
                  </td>
                  <td safe>{date(invoice.invoiceDate)}</td>
                  <td safe>{t(`status.${invoice.status}`)}</td>
                  <td safe>{date(invoice.dueDate)}</td>
                  <td class="num" safe>
                    {money(invoice.originalTotal)}
                  </td>
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
  );
}
