// The shipping settings page: the letterhead's logo (upload, preview, remove) and every field of the
// API's shipping settings, grouped as the letters use them.
import { COMPANY_SHIPPING_MODES } from '../../../companies/company.entity.js';
import { LEGAL_FORM_RULES, LEGAL_FORMS } from '../../../shipping/settings/legal-details.js';
import { PLACEHOLDERS } from '../../../shipping/settings/shipping-settings.js';
import type { FieldErrors } from '../../dunning/dunning-pages.js';
import { Flash } from '../../dunning/views/tabs.js';
import { Layout, type PageContext } from '../../views/layout.js';
import { SectionNav, SETTINGS_LINKS } from '../../views/section-nav.js';
import { type FormValues, SettingsField, yesNo } from './form-fields.js';
import { LogoSection } from './logo-section.js';

export interface ShippingSettingsProps {
  page: PageContext;
  values: FormValues;
  errors: FieldErrors;
  hasLogo: boolean;
  logoError?: string;
  notice?: string;
  error?: string;
}

const GROUPS = {
  sender: ['sender_name', 'sender_street', 'sender_zip', 'sender_city', 'sender_country_code', 'sender_phone'],
  bank: ['bank_account_holder', 'bank_iban', 'bank_bic', 'bank_name'],
  legal: ['registered_office', 'register_court', 'register_number'],
  texts: ['reminder1_title', 'reminder2_title', 'reminder3_title', 'invoice_email_subject', 'reminder_email_subject'],
  longTexts: ['invoice_email_body', 'reminder_email_body', 'cover_letter_text'],
} as const;

export function ShippingSettingsPage(props: ShippingSettingsProps) {
  const { page, errors } = props;
  const { t } = page.lang;
  const fields = { page, values: props.values, errors, catalogue: 'settings.shipping.fields' };
  const modes = COMPANY_SHIPPING_MODES.map((mode) => ({ value: mode, label: t(`settings.shipping.modes.${mode}`) }));
  const legalForms = [
    { value: '', label: t('settings.none') },
    ...LEGAL_FORMS.map((form) => ({ value: form, label: LEGAL_FORM_RULES[form].label ?? t(`settings.shipping.legalForms.${form}`) })),
  ];
  const formError = props.error ? `${props.error}${errors._form ? ` ${errors._form}` : ''}` : undefined;
  return (
    <Layout page={page} title={t('settings.shipping.title')}>
      <SectionNav page={page} label={t('nav.settingsLabel')} links={SETTINGS_LINKS} />
      <p safe>{t('settings.shipping.intro')}</p>
      <Flash notice={props.notice} error={formError} />
      <LogoSection page={page} hasLogo={props.hasLogo} error={props.logoError} />
      <form class="settings-form card" method="post" action="/settings/shipping" novalidate>
        <input type="hidden" name="_csrf" value={page.csrf} />
        <fieldset>
          <legend safe>{t('settings.shipping.defaults')}</legend>
          <SettingsField {...fields} name="shipping_mode" options={modes} />
          <SettingsField {...fields} name="autosend" options={yesNo(page)} />
          <SettingsField {...fields} name="autoskip_shipping" options={yesNo(page)} />
          <SettingsField {...fields} name="cover_page" options={yesNo(page)} />
          <SettingsField {...fields} name="refuse_active_pdf" options={yesNo(page)} />
        </fieldset>
        <fieldset>
          <legend safe>{t('settings.shipping.sender')}</legend>
          {GROUPS.sender.map((name) => (
            <SettingsField {...fields} name={name} />
          ))}
          <SettingsField {...fields} name="sender_email" type="email" autocomplete="email" />
          <SettingsField {...fields} name="reply_to" type="email" />
        </fieldset>
        <fieldset>
          <legend safe>{t('settings.shipping.bank')}</legend>
          {GROUPS.bank.map((name) => (
            <SettingsField {...fields} name={name} />
          ))}
        </fieldset>
        <fieldset>
          <legend safe>{t('settings.shipping.legal')}</legend>
          <SettingsField {...fields} name="legal_form" options={legalForms} />
          {GROUPS.legal.map((name) => (
            <SettingsField {...fields} name={name} />
          ))}
          <SettingsField {...fields} name="managing_directors" type="textarea" />
          <SettingsField {...fields} name="general_partner" />
          <SettingsField {...fields} name="vat_id" />
          <SettingsField {...fields} name="tax_number" />
        </fieldset>
        <fieldset>
          <legend safe>{t('settings.shipping.texts')}</legend>
          <p class="help" safe>
            {t('settings.shipping.textsHelp', { placeholders: PLACEHOLDERS.map((name) => `{${name}}`).join(', ') })}
          </p>
          {GROUPS.texts.map((name) => (
            <SettingsField {...fields} name={name} />
          ))}
          {GROUPS.longTexts.map((name) => (
            <SettingsField {...fields} name={name} type="textarea" />
          ))}
        </fieldset>
        <button type="submit" safe>
          {t('settings.save')}
        </button>
      </form>
    </Layout>
  );
}
