// The confirmations: each action, and the deletion of a payment, on a page of its own that names the
// consequence in plain words and executes only as a POST with the CSRF token. Refusals show here.
import type { AppError } from '../../../common/errors.js';
import { toPublicId } from '../../../common/ids.js';
import { Decimal } from '../../../common/money.js';
import type { InvoiceView } from '../../../invoices/invoice.serializer.js';
import type { Payment } from '../../../invoices/payment.entity.js';
import { Layout, type PageContext } from '../../views/layout.js';
import type { PageAction } from '../invoice-actions.js';
import type { InvoiceWire } from '../invoice-page.service.js';
import { ErrorSummary, Field, type FormState, Refusal } from './form-parts.js';

interface ConfirmProps {
  view: InvoiceView;
  wire: InvoiceWire;
  action: PageAction;
  /** False when the invoice's status does not allow the action (any more). */
  offered: boolean;
  form: FormState;
  refusal?: AppError;
}

export function ActionConfirmPage({ page, props }: { page: PageContext; props: ConfirmProps }) {
  const { t, money, date } = page.lang;
  const { view, wire, action, form } = props;
  const base = `/invoices/${wire.id}`;
  const label = t(`invoicePage.actions.${action}`);
  const number = view.invoice.invoiceNumber ?? t('invoice.noNumber');
  const consequence = t(`invoicePage.confirm.${action}`, {
    open: money(wire.open_amount),
    due: date(view.invoice.dueDate),
    reason: view.invoice.dunningBlockReason ?? '',
  });
  const values: FormState =
    action === 'block' && Object.keys(form.values).length === 0
      ? {
          values: {
            dunning_block_reason: view.invoice.dunningBlockReason ?? '',
            dunning_block_until: view.invoice.dunningBlockUntil ?? '',
          },
          errors: {},
        }
      : form;
  return (
    <Layout page={page} title={t('invoicePage.confirm.title', { action: label, number })}>
      {props.refusal ? <Refusal lang={page.lang} error={props.refusal} /> : ''}
      <section class="card">
        <p id="consequence" safe>
          {consequence}
        </p>
        {props.offered ? (
          <form class="stack" method="post" action={`${base}/confirm/${action}`}>
            <ErrorSummary lang={page.lang} form={values} />
            <input type="hidden" name="_csrf" value={page.csrf} />
            {action === 'block' ? (
              <>
                <Field
                  lang={page.lang}
                  form={values}
                  name="dunning_block_reason"
                  label={t('invoicePage.confirm.blockReason')}
                  required
                  maxlength={500}
                />
                <Field lang={page.lang} form={values} name="dunning_block_until" label={t('invoicePage.confirm.blockUntil')} type="date" />
              </>
            ) : action === 'unblock' ? (
              ''
            ) : (
              <Field
                lang={page.lang}
                form={values}
                name="reason"
                label={t('invoicePage.confirm.reason')}
                type="textarea"
                maxlength={1000}
              />
            )}
            <p safe>{t('invoicePage.confirm.question')}</p>
            <div class="buttons">
              <button type="submit" class="primary" safe>
                {t('invoicePage.confirm.submit', { action: label })}
              </button>
              <a href={base} safe>
                {t('invoicePage.confirm.cancel')}
              </a>
            </div>
          </form>
        ) : (
          <>
            <p class="error" role="alert" safe>
              {t('invoicePage.confirm.unavailable', { status: t(`status.${view.invoice.status}`) })}
            </p>
            <p>
              <a href={base} safe>
                {t('invoicePage.confirm.cancel')}
              </a>
            </p>
          </>
        )}
      </section>
    </Layout>
  );
}

export function PaymentDeletePage({
  page,
  props,
}: {
  page: PageContext;
  props: { wire: InvoiceWire; payment: Payment; refusal?: AppError };
}) {
  const { t, money, date } = page.lang;
  const { wire, payment } = props;
  const base = `/invoices/${wire.id}`;
  const raised = new Decimal(wire.open_amount).plus(payment.amount).toFixed(2);
  return (
    <Layout page={page} title={t('invoicePage.payment.deleteTitle')}>
      {props.refusal ? <Refusal lang={page.lang} error={props.refusal} /> : ''}
      <section class="card">
        <p id="consequence" safe>
          {t('invoicePage.payment.deleteConsequence', {
            date: date(payment.paymentDate),
            amount: money(payment.amount),
            open: money(raised),
          })}
        </p>
        <form class="stack" method="post" action={`${base}/payments/${toPublicId('pay', payment.id)}/delete`}>
          <input type="hidden" name="_csrf" value={page.csrf} />
          <p safe>{t('invoicePage.confirm.question')}</p>
          <div class="buttons">
            <button type="submit" class="primary" safe>
              {t('invoicePage.payment.deleteSubmit')}
            </button>
            <a href={base} safe>
              {t('invoicePage.confirm.cancel')}
            </a>
          </div>
        </form>
      </section>
    </Layout>
  );
}
