// The customer's dunning and shipping settings as a form: `stop_automatic_reminders` and the shipping
// mode, posted to /customers/<id>/settings; a refused value is named beside its field.
import { CUSTOMER_SHIPPING_MODES, type CustomerShippingMode } from '../../customers/customer.entity.js';
import type { PageContext } from '../views/layout.js';
import type { SettingsField, SettingsOutcome } from './customer-settings.js';

export interface SettingsFormProps {
  action: string;
  values: { stopAutomaticReminders: boolean; shippingMode: CustomerShippingMode | null };
  outcome?: SettingsOutcome;
}

export function CustomerSettingsForm({ page, props }: { page: PageContext; props: SettingsFormProps }) {
  const { t } = page.lang;
  const { values, outcome } = props;
  const invalid = (field: SettingsField) => outcome?.kind === 'invalid' && outcome.fields.includes(field);
  const described = (field: SettingsField, hint: string) => (invalid(field) ? `${hint} ${field}-error` : hint);
  const fieldError = (field: SettingsField) =>
    invalid(field) ? (
      <p id={`${field}-error`} class="field-error" safe>
        {t(`customers.settings.invalid.${field}`)}
      </p>
    ) : (
      ''
    );
  return (
    <section class="card" aria-labelledby="settings-h">
      <h2 id="settings-h" safe>
        {t('customers.settings.title')}
      </h2>
      {outcome?.kind === 'saved' ? (
        <p class="notice" role="status" safe>
          {t('customers.settings.saved')}
        </p>
      ) : outcome?.kind === 'invalid' ? (
        <p class="error" role="alert" safe>
          {t('customers.settings.failed')}
        </p>
      ) : (
        ''
      )}
      <form class="settings" method="post" action={props.action}>
        <input type="hidden" name="_csrf" value={page.csrf} />
        <div class="field check">
          <input
            type="checkbox"
            id="stop_automatic_reminders"
            name="stop_automatic_reminders"
            value="true"
            checked={values.stopAutomaticReminders}
            aria-invalid={invalid('stop_automatic_reminders') ? 'true' : undefined}
            aria-describedby={described('stop_automatic_reminders', 'stop-hint')}
          />
          <label for="stop_automatic_reminders" safe>
            {t('customers.settings.stopReminders')}
          </label>
          <p id="stop-hint" class="sub" safe>
            {t('customers.settings.stopRemindersHint')}
          </p>
          {fieldError('stop_automatic_reminders')}
        </div>
        <div class="field">
          <label for="shipping_mode" safe>
            {t('customers.settings.shippingMode')}
          </label>
          <select
            id="shipping_mode"
            name="shipping_mode"
            aria-invalid={invalid('shipping_mode') ? 'true' : undefined}
            aria-describedby={described('shipping_mode', 'mode-hint')}
          >
            <option value="" selected={values.shippingMode === null} safe>
              {t('customers.shippingMode.company')}
            </option>
            {CUSTOMER_SHIPPING_MODES.map((mode) => (
              <option value={mode} selected={values.shippingMode === mode} safe>
                {t(`customers.shippingMode.${mode}`)}
              </option>
            ))}
          </select>
          <p id="mode-hint" class="sub" safe>
            {t('customers.settings.shippingModeHint')}
          </p>
          {fieldError('shipping_mode')}
        </div>
        <button type="submit" safe>
          {t('customers.settings.save')}
        </button>
      </form>
    </section>
  );
}
