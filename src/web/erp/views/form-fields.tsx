// The fields of the ERP connection form: text, secret (write-only) and PEM fields with their help and
// error lines, choices, the PEM file uploads and the schedule's preview.
import type { PageContext } from '../../views/layout.js';
import type { FieldErrors } from '../../dunning/dunning-pages.js';
import { describedBy, FieldError } from '../../dunning/views/tabs.js';
import type { FormValues } from '../connection-form.js';

const SECRET_FIELDS = new Set(['client_secret', 'password', 'private_key', 'private_key_passphrase']);
const PEM_FIELDS = new Set(['client_certificate', 'private_key', 'ca_certificates']);
const idOf = (name: string) => `f-${name.replace(/\]\[|\[|\]/g, '-').replace(/-$/, '')}`;

export interface FieldProps {
  page: PageContext;
  values: FormValues;
  errors: FieldErrors;
  /** Which secrets are stored (edit only). */
  secretsSet: Record<string, boolean>;
  name: string;
}

export function Field({ page, values, errors, secretsSet, name, type = 'text' }: FieldProps & { type?: string }) {
  const { t } = page.lang;
  const id = idOf(name);
  const secret = SECRET_FIELDS.has(name);
  const error = errors[name];
  const state = secret ? t(secretsSet[name] ? 'erp.form.secretSet' : 'erp.form.secretUnset') : '';
  const common = { id, name, 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': describedBy(id, error) };
  return (
    <div class="field">
      <label for={id} safe>
        {t(`erp.field.${name}`)}
      </label>
      {PEM_FIELDS.has(name) ? (
        <textarea {...common} rows="4" spellcheck="false" safe>
          {secret ? '' : (values.fields[name] ?? '')}
        </textarea>
      ) : (
        <input
          {...common}
          type={secret ? 'password' : type}
          autocomplete={secret ? 'new-password' : 'off'}
          value={secret ? '' : values.fields[name]}
        />
      )}
      <p class="help" id={`${id}-help`} safe>
        {`${t(`erp.field.${name}Help`)}${state ? ` (${state})` : ''}`}
      </p>
      <FieldError id={id} message={error} />
    </div>
  );
}

export function Choice(props: FieldProps & { options: Array<{ value: string; label: string }> }) {
  const { page, values, errors, name, options } = props;
  const { t } = page.lang;
  const id = idOf(name);
  return (
    <div class="field">
      <label for={id} safe>
        {t(`erp.field.${name}`)}
      </label>
      <select id={id} name={name} aria-invalid={errors[name] ? 'true' : undefined} aria-describedby={describedBy(id, errors[name])}>
        {options.map((option) => (
          <option value={option.value} selected={values.fields[name] === option.value} safe>
            {option.label}
          </option>
        ))}
      </select>
      <p class="help" id={`${id}-help`} safe>
        {t(`erp.field.${name}Help`)}
      </p>
      <FieldError id={id} message={errors[name]} />
    </div>
  );
}

export function SchedulePreview({ page, runs, timeZone }: { page: PageContext; runs: Date[] | 'invalid'; timeZone: string }) {
  const { t, dateTime } = page.lang;
  if (runs === 'invalid')
    return (
      <p class="help" id="schedule-preview" safe>
        {t('erp.form.previewInvalid')}
      </p>
    );
  if (runs.length === 0)
    return (
      <p class="help" id="schedule-preview" safe>
        {t('erp.form.previewNone')}
      </p>
    );
  return (
    <div id="schedule-preview" class="help">
      <p safe>{t('erp.form.preview', { timeZone })}</p>
      <ul>
        {runs.map((run) => (
          <li safe>{dateTime(run)}</li>
        ))}
      </ul>
    </div>
  );
}

/** The certificate and key may come as files: the X.509 form is multipart. */
export const FILE_OF: Record<string, string> = { client_certificate: 'client_certificate_file', private_key: 'private_key_file' };

/**
 * A multipart form's CSRF token cannot be read before its body is, and the check comes first: htmx sends
 * the form with the token as a header and swaps the answer's content (a refusal) or follows HX-Redirect.
 */
export function uploading(action: string, csrf: string): Record<string, string> {
  return {
    enctype: 'multipart/form-data',
    'hx-post': action,
    'hx-headers': JSON.stringify({ 'x-csrf-token': csrf }),
    'hx-target': '#content',
    'hx-select': '#content',
    'hx-swap': 'outerHTML',
  };
}

export function FileField({ page, name }: { page: PageContext; name: string }) {
  const { t } = page.lang;
  const id = idOf(name);
  return (
    <div class="field">
      <label for={id} safe>
        {t(`erp.field.${name}`)}
      </label>
      <input id={id} name={name} type="file" accept=".pem,.crt,.cer,.key,application/x-pem-file" aria-describedby={`${id}-help`} />
      <p class="help" id={`${id}-help`} safe>
        {t('erp.form.uploadHelp')}
      </p>
    </div>
  );
}
