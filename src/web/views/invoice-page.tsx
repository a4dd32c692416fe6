// The invoice page: status and amounts, customer and contact, payments, reminders and the timeline.
import { toPublicId } from '../../common/ids.js';
import type { InvoiceEvent } from '../../invoices/invoice-event.entity.js';
import type { InvoiceView } from '../../invoices/invoice.serializer.js';
import { Layout, type PageContext } from './layout.js';

export interface InvoicePageProps {
  view: InvoiceView;
  /** The invoice's total as the API states it (original total plus every charge). */
  total: string;
  events: InvoiceEvent[];
}

const EVENT_KINDS = new Set([
  'created',
  'updated',
  'status_changed',
  'payment_recorded',
  'payment_deleted',
  'shipped',
  'reminder_issued',
  ...['shipping_started', 'shipping_cancelled', 'shipping_attention', 'reminder_cancelled', 'reminder_skipped'],
  ...['interest_recorded', 'interest_corrected', 'rest_waived', 'waiver_revoked', 'recovery_recorded'],
]);

export function InvoicePage({ page, props }: { page: PageContext; props: InvoicePageProps }) {
  const { t, money, date, dateTime } = page.lang;
  const { invoice, customer, contact, payments, reminders } = props.view;
  const title = t('invoice.title', { number: invoice.invoiceNumber ?? t('invoice.noNumber') });
  const amounts: Array<[string, string]> = [
    ['invoice.total', props.total],
    ['invoice.originalTotal', invoice.originalTotal],
    ['invoice.fees', invoice.reminderFees],
    ['invoice.defaultInterest', invoice.defaultInterest],
    ['invoice.flatFee', invoice.flatFee],
    ['invoice.waived', invoice.waivedAmount],
    ['invoice.paid', invoice.paidAmount],
    ['invoice.open', invoice.openAmount],
  ];
  return (
    <Layout page={page} title={title}>
      <div class="grid">
        <section class="card" aria-labelledby="status-h">
          <h2 id="status-h" safe>
            {t('invoice.status')}
          </h2>
          <p>
            <span class="status" data-status={invoice.status} safe>
              {t(`status.${invoice.status}`)}
            </span>
          </p>
          {invoice.dunningBlockReason ? (
            <p safe>{t('invoice.dunningBlockUntil', { date: date(invoice.dunningBlockUntil), reason: invoice.dunningBlockReason })}</p>
          ) : (
            ''
          )}
          <dl class="facts">
            <dt safe>{t('invoice.invoiceDate')}</dt>
            <dd safe>{date(invoice.invoiceDate)}</dd>
            <dt safe>{t('invoice.dueDate')}</dt>
            <dd safe>{date(invoice.dueDate)}</dd>
            <dt safe>{t('invoice.externalId')}</dt>
            <dd safe>{invoice.externalId ?? t('none')}</dd>
          </dl>
        </section>
        <section class="card" aria-labelledby="amounts-h">
          <h2 id="amounts-h" safe>
            {t('invoice.amounts')}
          </h2>
          <dl class="facts">
            {amounts.map(([label, amount]) => (
              <>
                <dt safe>{t(label)}</dt>
                <dd class="num" data-amount={label.slice('invoice.'.length)} safe>
                  {money(amount)}
                </dd>
              </>
            ))}
          </dl>
        </section>
        <section class="card" aria-labelledby="customer-h">
          <h2 id="customer-h" safe>
            {t('invoice.customer')}
          </h2>
          <p>
            <a href={`/customers/${toPublicId('cus', customer.id)}`} safe>
              {customer.name}
            </a>
          </p>
          <h3 safe>{t('invoice.contact')}</h3>
          {contact ? (
            <p>
              <span safe>{contact.name}</span>
              {contact.email ? (
                <>
                  <br />
                  <span safe>{contact.email}</span>
                </>
              ) : (
                ''
              )}
            </p>
          ) : (
            <p safe>{t('invoice.noContact')}</p>
          )}
        </section>
      </div>
      <section class="card" aria-labelledby="payments-h">
        <h2 id="payments-h" safe>
          {t('invoice.payments')}
        </h2>
        {payments.length === 0 ? (
          <p safe>{t('invoice.noPayments')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col" safe>
                  {t('invoice.paymentDate')}
                </th>
                <th scope="col" class="num" safe>
                  {t('invoice.amount')}
                </th>
                <th scope="col" safe>
                  {t('invoice.note')}
                </th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => (
                <tr>
                  <td safe>{date(p.paymentDate)}</td>
                  <td class="num" safe>
                    {money(p.amount)}
                  </td>
                  <td safe>{p.note ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section class="card" aria-labelledby="reminders-h">
        <h2 id="reminders-h" safe>
          {t('invoice.reminders')}
        </h2>
        {reminders.length === 0 ? (
          <p safe>{t('invoice.noReminders')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col" safe>
                  {t('invoice.reminderStage')}
                </th>
                <th scope="col" safe>
                  {t('invoice.reminderDate')}
                </th>
                <th scope="col" class="num" safe>
                  {t('invoice.fees')}
                </th>
                <th scope="col" class="num" safe>
                  {t('invoice.defaultInterest')}
                </th>
                <th scope="col" class="num" safe>
                  {t('invoice.flatFee')}
                </th>
              </tr>
            </thead>
            <tbody>
              {reminders.map((r) => (
                <tr>
                  <td safe>{String(r.reminderStage)}</td>
                  <td safe>{date(r.reminderDate)}</td>
                  <td class="num" safe>
                    {money(r.fees)}
                  </td>
                  <td class="num" safe>
                    {money(r.defaultInterest)}
                  </td>
                  <td class="num" safe>
                    {money(r.flatFee)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section class="card" aria-labelledby="events-h">
        <h2 id="events-h" safe>
          {t('invoice.events')}
        </h2>
        <table>
          <thead>
            <tr>
              <th scope="col" safe>
                {t('invoice.eventWhen')}
              </th>
              <th scope="col" safe>
                {t('invoice.eventWhat')}
              </th>
              <th scope="col" safe>
                {t('invoice.eventWho')}
              </th>
              <th scope="col" safe>
                {t('invoice.eventWhy')}
              </th>
            </tr>
          </thead>
          <tbody>
            {props.events.map((e) => (
              <tr data-event={e.kind}>
                <td safe>{dateTime(e.createdAt)}</td>
                <td safe>
                  {[
                    EVENT_KINDS.has(e.kind) ? t(`event.${e.kind}`) : t('event.other', { kind: e.kind }),
                    e.fromStatus && e.toStatus
                      ? t('event.transition', { from: t(`status.${e.fromStatus}`), to: t(`status.${e.toStatus}`) })
                      : '',
                  ]
                    .filter(Boolean)
                    .join(': ')}
                </td>
                <td safe>{t(`actor.${e.actorType}`)}</td>
                <td safe>{e.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </Layout>
  );
}
