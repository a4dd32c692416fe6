// Pieces of the invoice page's forms: a labelled field with its error beside it, and a refusal of the
// service named in the user's language (with the service's own sentence where there is no translation).
import type { Children } from '@kitajs/html';
import { AppError } from '../../../common/errors.js';
import type { Lang } from '../../i18n.js';
import type { FieldErrors, FormValues } from '../form-input.js';

export interface FormState {
  values: FormValues;
  errors: FieldErrors;
}

export const EMPTY_FORM: FormState = { values: {}, errors: {} };

/** The catalogue's message for a refused field; the API's own message for a field it does not know. */
function fieldMessage(lang: Lang, field: string, message: string): string {
  const key = `invoicePage.errors.${field}`;
  return lang.t(key, { defaultValue: '' }) || message;
}

export function Field(props: {
  lang: Lang;
  form: FormState;
  name: string;
  label: string;
  type?: 'text' | 'date' | 'textarea';
  required?: boolean;
  inputmode?: 'decimal';
  maxlength?: number;
}) {
  const { lang, form, name, label } = props;
  const id = `f-${name}`;
  const error = form.errors[name];
  const errorId = `${id}-error`;
  const common = {
    id,
    name,
    required: props.required,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': error ? errorId : undefined,
  };
  return (
    <div class="field">
      <label for={id} safe>
        {label}
      </label>
      {props.type === 'textarea' ? (
        <textarea {...common} rows="2" maxlength={props.maxlength} safe>
          {form.values[name] ?? ''}
        </textarea>
      ) : (
        <input
          {...common}
          type={props.type ?? 'text'}
          inputmode={props.inputmode}
          maxlength={props.maxlength}
          value={form.values[name] ?? ''}
        />
      )}
      {error ? (
        <p class="field-error" id={errorId} safe>
          {fieldMessage(lang, name, error)}
        </p>
      ) : (
        ''
      )}
    </div>
  );
}

export function ErrorSummary({ lang, form }: { lang: Lang; form: FormState }) {
  if (Object.keys(form.errors).length === 0) return '';
  return (
    <p class="error" role="alert" safe>
      {lang.t('invoicePage.errors.title')}
    </p>
  );
}

/** What the refusal means, in the user's words where the code is known. */
function refusalText(lang: Lang, error: AppError): string | undefined {
  const { t } = lang;
  const status = error.extensions.current_status;
  const statusName = typeof status === 'string' ? t(`status.${status}`) : '';
  if (error.code === 'invoice.transition_not_allowed') {
    const allowed = (error.extensions.allowed_from as string[] | undefined) ?? [];
    return t('invoicePage.errors.transition', { status: statusName, allowed: allowed.map((s) => t(`status.${s}`)).join(', ') });
  }
  return undefined;
}

export function Refusal({ lang, error }: { lang: Lang; error: AppError }) {
  const text = refusalText(lang, error);
  return (
    <div class="error" role="alert" id="refusal">
      <p safe>{lang.t('invoicePage.errors.refused')}</p>
      {text ? <p safe>{text}</p> : ''}
      <p>
        <span safe>{lang.t('invoicePage.errors.apiReason')}</span>{' '}
        <span lang="en" data-code={error.code} safe>
          {error.message}
        </span>
      </p>
      {error.errors.length > 0 ? (
        <ul lang="en">
          {error.errors.map((e) => (
            <li safe>{e.message}</li>
          ))}
        </ul>
      ) : (
        ''
      )}
    </div>
  );
}

export function Card({ id, title, children }: { id: string; title: string; children: Children }) {
  return (
    <section class="card" aria-labelledby={`${id}-h`} id={id}>
      <h2 id={`${id}-h`} safe>
        {title}
      </h2>
      {children}
    </section>
  );
}
