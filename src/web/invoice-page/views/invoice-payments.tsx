// The payments of the invoice: the list (each with a link to the confirmation of its deletion) and the
// form that records one, with the API's refusals beside the fields.
import { toPublicId } from '../../../common/ids.js';
import type { InvoiceView } from '../../../invoices/invoice.serializer.js';
import { CLOSED } from '../../../invoices/payments.service.js';
import type { Lang } from '../../i18n.js';
import { Card, ErrorSummary, Field, type FormState } from './form-parts.js';

export function PaymentsCard(props: { lang: Lang; csrf: string; view: InvoiceView; base: string; form: FormState }) {
  const { lang, view, base, form } = props;
  const { t, money, date } = lang;
  const open = !CLOSED.includes(view.invoice.status);
  return (
    <Card id="payments" title={t('invoice.payments')}>
      {view.payments.length === 0 ? (
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
                {t('invoicePage.payment.reference_col')}
              </th>
              <th scope="col" safe>
                {t('invoice.note')}
              </th>
              <th scope="col" safe>
                {t('invoicePage.payment.source')}
              </th>
              <th scope="col">
                <span class="sr-only" safe>
                  {t('invoicePage.actions.title')}
                </span>
              </th>
            </tr>
          </thead>
          <tbody>
            {view.payments.map((p) => (
              <tr data-payment={toPublicId('pay', p.id)}>
                <td safe>{date(p.paymentDate)}</td>
                <td class="num" safe>
                  {money(p.amount)}
                </td>
                <td safe>{p.externalId ?? ''}</td>
                <td safe>{p.note ?? ''}</td>
                <td safe>{p.source}</td>
                <td>
                  {open ? (
                    <a
                      href={`${base}/payments/${toPublicId('pay', p.id)}/delete`}
                      aria-label={t('invoicePage.payment.deleteLabel', { date: date(p.paymentDate), amount: money(p.amount) })}
                      safe
                    >
                      {t('invoicePage.payment.delete')}
                    </a>
                  ) : (
                    ''
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open ? (
        <form class="stack" method="post" action={`${base}/payments`} id="payment-form">
          <h3 safe>{t('invoicePage.payment.add')}</h3>
          <ErrorSummary lang={lang} form={form} />
          <input type="hidden" name="_csrf" value={props.csrf} />
          <Field lang={lang} form={form} name="amount" label={t('invoicePage.payment.amount')} inputmode="decimal" required />
          <Field lang={lang} form={form} name="payment_date" label={t('invoicePage.payment.date')} type="date" />
          <Field lang={lang} form={form} name="external_id" label={t('invoicePage.payment.reference')} maxlength={255} />
          <Field lang={lang} form={form} name="note" label={t('invoicePage.payment.note')} type="textarea" maxlength={2000} />
          <div class="check">
            <input
              type="checkbox"
              id="f-inkasso_payment"
              name="inkasso_payment"
              value="true"
              checked={form.values.inkasso_payment === 'true'}
            />
            <label for="f-inkasso_payment" safe>
              {t('invoicePage.payment.inkasso')}
            </label>
          </div>
          <button type="submit" safe>
            {t('invoicePage.payment.submit')}
          </button>
        </form>
      ) : (
        <p safe>{t('invoicePage.payment.notAllowed')}</p>
      )}
    </Card>
  );
}
