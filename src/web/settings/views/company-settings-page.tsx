// The company settings page: name, time zone and contact e-mail, each with its explanation and the
// reason beside a refused value.
import { TIME_ZONES } from '../../../companies/dto/company-profile.dto.js';
import type { FieldErrors } from '../../dunning/dunning-pages.js';
import { Flash } from '../../dunning/views/tabs.js';
import { Layout, type PageContext } from '../../views/layout.js';
import { SectionNav, SETTINGS_LINKS } from '../../views/section-nav.js';
import { type FormValues, SettingsField } from './form-fields.js';

export function CompanySettingsPage(props: {
  page: PageContext;
  values: FormValues;
  errors: FieldErrors;
  notice?: string;
  error?: string;
}) {
  const { page, values, errors } = props;
  const { t } = page.lang;
  const fields = { page, values, errors, catalogue: 'settings.company.fields' };
  const current = values.time_zone ?? '';
  // A zone stored before this list existed stays selectable, so that saving the name does not change it.
  const zones = TIME_ZONES.includes(current) || !current ? TIME_ZONES : [current, ...TIME_ZONES];
  return (
    <Layout page={page} title={t('settings.company.title')}>
      <SectionNav page={page} label={t('nav.settingsLabel')} links={SETTINGS_LINKS} />
      <p safe>{t('settings.company.intro')}</p>
      <Flash notice={props.notice} error={props.error ? `${props.error}${errors._form ? ` ${errors._form}` : ''}` : undefined} />
      <form class="settings-form card" method="post" action="/settings/company" novalidate>
        <input type="hidden" name="_csrf" value={page.csrf} />
        <SettingsField {...fields} name="name" autocomplete="organization" />
        <SettingsField {...fields} name="time_zone" options={zones.map((zone) => ({ value: zone, label: zone }))} />
        <SettingsField {...fields} name="contact_email" type="email" autocomplete="email" />
        <button type="submit" safe>
          {t('settings.save')}
        </button>
      </form>
    </Layout>
  );
}
