// The edit form of an invoice: only the fields its status still allows (the API's editable fields), the
// others read-only with the reason; errors beside the field, a refusal of the service above the form.
import type { AppError } from '../../../common/errors.js';
import type { InvoiceView } from '../../../invoices/invoice.serializer.js';
import { Layout, type PageContext } from '../../views/layout.js';
import { EDIT_FIELDS, type EditField } from '../invoice-operations.js';
import { ErrorSummary, Field, type FormState, Refusal } from './form-parts.js';

export interface EditPageProps {
  view: InvoiceView;
  base: string;
  editable: EditField[];
  /** The invoice's own values (the read-only fields show them). */
  current: Record<EditField, string>;
  /** The values shown: the invoice's, or the form as posted. */
  form: FormState;
  refusal?: AppError;
}

const MAX_LENGTH: Partial<Record<EditField, number>> = { invoice_number: 100, additional_number: 255, external_id: 255 };

export function EditPage({ page, props }: { page: PageContext; props: EditPageProps }) {
  const { t, date, money } = page.lang;
  const { view, base, editable, form, current } = props;
  const status = t(`status.${view.invoice.status}`);
  const locked = EDIT_FIELDS.filter((field) => !editable.includes(field));
  const shown = (field: EditField) =>
    field === 'total'
      ? money(view.invoice.originalTotal)
      : field.endsWith('_date')
        ? date(current[field] || null)
        : current[field] || t('none');
  return (
    <Layout page={page} title={t('invoicePage.ops.edit.title', { number: view.invoice.invoiceNumber ?? t('invoice.noNumber') })}>
      {props.refusal ? <Refusal lang={page.lang} error={props.refusal} /> : ''}
      <section class="card">
        {editable.length === 0 ? (
          <p safe>{t('invoicePage.ops.edit.none', { status })}</p>
        ) : (
          <form class="stack" method="post" action={`${base}/edit`} novalidate>
            <p safe>{t('invoicePage.ops.edit.intro', { status })}</p>
            <ErrorSummary lang={page.lang} form={form} />
            <input type="hidden" name="_csrf" value={page.csrf} />
            {editable.map((field) => (
              <Field
                lang={page.lang}
                form={form}
                name={field}
                label={t(`invoicePage.ops.edit.${field}`)}
                type={field.endsWith('_date') ? 'date' : 'text'}
                inputmode={field === 'total' ? 'decimal' : undefined}
                maxlength={MAX_LENGTH[field]}
              />
            ))}
            <div class="buttons">
              <button type="submit" class="primary" safe>
                {t('invoicePage.ops.edit.submit')}
              </button>
              <a href={base} safe>
                {t('invoicePage.confirm.cancel')}
              </a>
            </div>
          </form>
        )}
        {locked.length > 0 ? (
          <div id="locked">
            <p safe>{t('invoicePage.ops.edit.locked', { status })}</p>
            <dl class="facts">
              {locked.map((field) => (
                <>
                  <dt safe>{t(`invoicePage.ops.edit.${field}`)}</dt>
                  <dd data-locked={field} safe>
                    {shown(field)}
                  </dd>
                </>
              ))}
            </dl>
            {locked.includes('total') ? <p safe>{t('invoicePage.ops.edit.lockedHint')}</p> : ''}
          </div>
        ) : (
          ''
        )}
        {editable.length === 0 ? (
          <p>
            <a href={base} safe>
              {t('invoicePage.confirm.cancel')}
            </a>
          </p>
        ) : (
          ''
        )}
      </section>
    </Layout>
  );
}
