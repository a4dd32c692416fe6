// One labelled form field of the settings pages: its one-line explanation below it and, when the
// service refused the value, the reason beside it (tied to the field by aria-describedby).
import type { FieldErrors } from '../../dunning/dunning-pages.js';
import { describedBy, FieldError } from '../../dunning/views/tabs.js';
import type { PageContext } from '../../views/layout.js';

/** The form's values as text, by field name. */
export type FormValues = Record<string, string>;

export interface FieldsOf {
  page: PageContext;
  values: FormValues;
  errors: FieldErrors;
  /** The catalogue node holding `[label, help]` per field name, e.g. 'settings.shipping.fields'. */
  catalogue: string;
}

interface FieldProps extends FieldsOf {
  name: string;
  type?: 'text' | 'email' | 'textarea';
  options?: Array<{ value: string; label: string }>;
  autocomplete?: string;
}

export function SettingsField({ page, values, errors, catalogue, name, type = 'text', options, autocomplete }: FieldProps) {
  const { t } = page.lang;
  const error = errors[name];
  const common = { id: name, name, 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': describedBy(name, error) };
  const value = values[name] ?? '';
  return (
    <div>
      <label for={name} safe>
        {t(`${catalogue}.${name}.0`)}
      </label>
      {options ? (
        <select {...common}>
          {options.map((option) => (
            <option value={option.value} selected={value === option.value} safe>
              {option.label}
            </option>
          ))}
        </select>
      ) : type === 'textarea' ? (
        <textarea {...common} rows="4" safe>
          {value}
        </textarea>
      ) : (
        <input {...common} type={type} value={value} autocomplete={autocomplete} />
      )}
      <p class="help" id={`${name}-help`} safe>
        {t(`${catalogue}.${name}.1`)}
      </p>
      <FieldError id={name} message={error} />
    </div>
  );
}

/** The yes/no choice of a boolean setting. */
export function yesNo(page: PageContext): Array<{ value: string; label: string }> {
  return [
    { value: 'true', label: page.lang.t('settings.yes') },
    { value: 'false', label: page.lang.t('settings.no') },
  ];
}
