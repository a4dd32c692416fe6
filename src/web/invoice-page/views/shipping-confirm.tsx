// The confirmation of a shipping step on a page of its own: a letter the client posted itself (invoice or
// reminder), or a reminder shipped again. It names the consequence and runs only as a POST with the token.
import type { AppError } from '../../../common/errors.js';
import { toPublicId } from '../../../common/ids.js';
import type { InvoiceView } from '../../../invoices/invoice.serializer.js';
import type { Reminder } from '../../../invoices/reminder.entity.js';
import { Layout, type PageContext } from '../../views/layout.js';
import type { InvoiceWire } from '../invoice-page.service.js';
import { Refusal } from './form-parts.js';

export type ShippingStep = 'confirmInvoice' | 'confirmReminder' | 'shipAgain';

export interface ShippingConfirmProps {
  view: InvoiceView;
  wire: InvoiceWire;
  step: ShippingStep;
  reminder: Reminder | null;
  /** Where the form posts to, and the letter it concerns. */
  action: string;
  letter: string;
  /** False when nothing waits for this step (any more). */
  offered: boolean;
  refusal?: AppError;
}

export function ShippingConfirmPage({ page, props }: { page: PageContext; props: ShippingConfirmProps }) {
  const { t, money, date } = page.lang;
  const { view, wire, step, reminder } = props;
  const base = `/invoices/${wire.id}`;
  const values = {
    number: view.invoice.invoiceNumber ?? t('invoice.noNumber'),
    stage: reminder?.reminderStage ?? '',
    due: date(view.invoice.dueDate),
    open: money(wire.open_amount),
  };
  const submit = step === 'shipAgain' ? 'invoicePage.ops.shipping.submitShip' : 'invoicePage.ops.shipping.submitConfirm';
  return (
    <Layout page={page} title={t(`invoicePage.ops.shipping.${step}Title`, values)}>
      {props.refusal ? <Refusal lang={page.lang} error={props.refusal} /> : ''}
      <section class="card">
        <p id="consequence" safe>
          {t(`invoicePage.ops.shipping.${step}Text`, values)}
        </p>
        <p>
          <a href={`${props.letter}?inline=true`} target="_blank" rel="noopener" safe>
            {t('invoicePage.ops.shipping.letter')}
          </a>
        </p>
        {step === 'shipAgain' ? (
          <p>
            <a href={`/customers/${toPublicId('cus', view.customer.id)}`} safe>
              {t('invoicePage.ops.shipping.customer', { name: view.customer.name })}
            </a>
          </p>
        ) : (
          ''
        )}
        {props.offered ? (
          <form class="stack" method="post" action={props.action}>
            <input type="hidden" name="_csrf" value={page.csrf} />
            <p safe>{t('invoicePage.confirm.question')}</p>
            <div class="buttons">
              <button type="submit" class="primary" safe>
                {t(submit)}
              </button>
              <a href={base} safe>
                {t('invoicePage.confirm.cancel')}
              </a>
            </div>
          </form>
        ) : (
          <>
            <p class="error" role="alert" safe>
              {t('invoicePage.ops.shipping.unavailable')}
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
