// The dunning policy form: every field of the API's policy with a one-line explanation, and the API's
// validation message beside a field it refused. A member sees the same fields disabled, without a form.
import { DEFAULT_STARTS } from '../../../companies/dunning-policy.js';
import { Layout, type PageContext } from '../../views/layout.js';
import type { FieldErrors } from '../dunning-pages.js';
import { describedBy, DunningTabs, FieldError, Flash } from './tabs.js';

/** The form's values as text, by field name (`grace_days`, `levels[0][fee]`). */
export type PolicyValues = Record<string, string>;

interface FieldProps {
  page: PageContext;
  name: string;
  /** The catalogue key under dunning.policy: label `<msg>`, explanation `<msg>Help`. */
  msg: string;
  values: PolicyValues;
  errors: FieldErrors;
}

/** A field's id from its name: levels[0][fee] → levels-0-fee. */
const idOf = (name: string) => name.replace(/\]\[|\[|\]/g, '-').replace(/-$/, '');

function Field({ page, name, msg, values, errors, type = 'number', step }: FieldProps & { type?: string; step?: string }) {
  const { t } = page.lang;
  const id = idOf(name);
  return (
    <div>
      <label for={id} safe>
        {t(`dunning.policy.${msg}`)}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        step={step}
        value={values[name] ?? ''}
        aria-invalid={errors[name] ? 'true' : undefined}
        aria-describedby={describedBy(id, errors[name])}
      />
      <p class="help" id={`${id}-help`} safe>
        {t(`dunning.policy.${msg}Help`)}
      </p>
      <FieldError id={id} message={errors[name]} />
    </div>
  );
}

function Choice({ page, name, msg, values, errors, options }: FieldProps & { options?: Array<{ value: string; label: string }> }) {
  const { t } = page.lang;
  const id = idOf(name);
  const choices = options ?? [
    { value: 'true', label: t('dunning.policy.yes') },
    { value: 'false', label: t('dunning.policy.no') },
  ];
  return (
    <div>
      <label for={id} safe>
        {t(`dunning.policy.${msg}`)}
      </label>
      <select id={id} name={name} aria-invalid={errors[name] ? 'true' : undefined} aria-describedby={describedBy(id, errors[name])}>
        {choices.map((choice) => (
          <option value={choice.value} selected={values[name] === choice.value} safe>
            {choice.label}
          </option>
        ))}
      </select>
      <p class="help" id={`${id}-help`} safe>
        {t(`dunning.policy.${msg}Help`)}
      </p>
      <FieldError id={id} message={errors[name]} />
    </div>
  );
}

export interface PolicyProps {
  page: PageContext;
  values: PolicyValues;
  errors: FieldErrors;
  notice?: string;
  error?: string;
  /** A member's view: the policy without a form (only owners change it). */
  readOnly?: boolean;
}

export function PolicyPage(props: PolicyProps) {
  const { page, values, errors, readOnly } = props;
  const { t } = page.lang;
  const common = { page, values, errors };
  const starts = DEFAULT_STARTS.map((value) => ({
    value,
    label: t(value === 'reminder_deadline' ? 'dunning.policy.startsReminder' : 'dunning.policy.startsThirty'),
  }));
  const fieldsets = (
    <>
      <fieldset disabled={readOnly}>
        <legend safe>{t('dunning.policy.general')}</legend>
        <Choice {...common} name="auto_ship" msg="auto_ship" />
        <Field {...common} name="grace_days" msg="grace_days" />
        <Field {...common} name="collection_days" msg="collection_days" />
        <Field {...common} name="proposal_valid_days" msg="proposal_valid_days" />
        <Field {...common} name="run_at" msg="run_at" type="text" />
        <Choice {...common} name="send_when_erp_unreachable" msg="send_when_erp_unreachable" />
      </fieldset>
      <fieldset disabled={readOnly}>
        <legend safe>{t('dunning.policy.charges')}</legend>
        <Choice {...common} name="default_interest" msg="default_interest" />
        <Choice {...common} name="default_starts" msg="default_starts" options={starts} />
        <Choice {...common} name="business_flat_fee" msg="business_flat_fee" />
        <Choice {...common} name="waive_remainder" msg="waive_remainder" />
      </fieldset>
      {[0, 1, 2].map((i) => (
        <fieldset disabled={readOnly}>
          <legend safe>{t('dunning.policy.level', { level: i + 1 })}</legend>
          <Field {...common} name={`levels[${i}][wait_days]`} msg="wait_days" />
          <Field {...common} name={`levels[${i}][fee]`} msg="fee" type="text" />
          <Field {...common} name={`levels[${i}][minimum_open_amount]`} msg="minimum_open_amount" type="text" />
          <Field {...common} name={`levels[${i}][payment_term_days]`} msg="payment_term_days" />
          <div>
            <label for={`levels-${i}-text`} safe>
              {t('dunning.policy.text')}
            </label>
            <textarea
              id={`levels-${i}-text`}
              name={`levels[${i}][text]`}
              aria-invalid={errors[`levels[${i}][text]`] ? 'true' : undefined}
              aria-describedby={describedBy(`levels-${i}-text`, errors[`levels[${i}][text]`])}
              safe
            >
              {values[`levels[${i}][text]`] ?? ''}
            </textarea>
            <p class="help" id={`levels-${i}-text-help`} safe>
              {t('dunning.policy.textHelp')}
            </p>
            <FieldError id={`levels-${i}-text`} message={errors[`levels[${i}][text]`]} />
          </div>
        </fieldset>
      ))}
    </>
  );
  return (
    <Layout page={page} title={t('dunning.policy.title')}>
      <DunningTabs page={page} current="/dunning/policy" />
      <Flash notice={props.notice} error={props.error ? `${props.error}${errors._form ? ` ${errors._form}` : ''}` : undefined} />
      {readOnly ? (
        <div class="dunning card" data-read-only="true">
          <p class="sub" safe>
            {t('account.roles.ownersChange')}
          </p>
          {fieldsets}
        </div>
      ) : (
        <form class="dunning card" method="post" action="/dunning/policy" novalidate>
          <input type="hidden" name="_csrf" value={page.csrf} />
          {fieldsets}
          <button type="submit" safe>
            {t('dunning.policy.save')}
          </button>
        </form>
      )}
    </Layout>
  );
}
