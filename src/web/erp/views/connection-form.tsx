// The create and edit form of an ERP connection: one form per auth method (chosen by link, so it works
// without script), secrets write-only ("set" / "not set", an empty field keeps the stored one), the
// schedule with its next run times, and the mapping overrides in an advanced section.
import { AUTH_METHODS, type AuthMethod } from '../../../connectors/odata-client.factory.js';
import { SectionNav, INTEGRATIONS_LINKS } from '../../views/section-nav.js';
import { Layout, type PageContext } from '../../views/layout.js';
import type { FieldErrors } from '../../dunning/dunning-pages.js';
import { describedBy, FieldError, Flash } from '../../dunning/views/tabs.js';
import { Choice, Field, FILE_OF, FileField, SchedulePreview, uploading } from './form-fields.js';
import { type FormValues, METHOD_FIELDS } from '../connection-form.js';

export interface ConnectionFormProps {
  page: PageContext;
  /** The connection's public id when editing; absent for a new one. */
  id?: string;
  name?: string;
  method: AuthMethod;
  values: FormValues;
  errors: FieldErrors;
  /** Which secrets are stored (edit only). */
  secretsSet: Record<string, boolean>;
  /** The schedule's next runs ('invalid': not a schedule). */
  nextRuns: Date[] | 'invalid';
  timeZone: string;
  error?: string;
}

export function ConnectionFormPage(props: ConnectionFormProps) {
  const { page, id, method, values, errors } = props;
  const { t } = page.lang;
  const common = { page, values, errors, secretsSet: props.secretsSet };
  const yesNo = [
    { value: 'true', label: t('erp.form.yes') },
    { value: 'false', label: t('erp.form.no') },
  ];
  const base = id ? `/integrations/erp/${id}` : '/integrations/erp';
  const formPath = id ? `${base}/edit` : `${base}/new`;
  const title = id ? t('erp.form.editTitle', { name: props.name ?? '' }) : t('erp.form.newTitle');
  const action = id ? base : '/integrations/erp';
  const formError = errors._form ? `${props.error ?? ''} ${errors._form}`.trim() : props.error;
  return (
    <Layout page={page} title={title}>
      <SectionNav page={page} label={t('nav.integrationsLabel')} links={INTEGRATIONS_LINKS} />
      <Flash error={formError} />
      <nav class="tabs" aria-label={t('erp.form.methodLabel')}>
        <p class="help" safe>
          {t('erp.form.methodHelp')}
        </p>
        <ul>
          {AUTH_METHODS.map((m) => (
            <li>
              <a href={`${formPath}?auth=${m}`} aria-current={m === method ? 'page' : undefined} safe>
                {t(`erp.auth.${m}`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <form class="erp card" method="post" action={action} novalidate {...(method === 'x509' ? uploading(action, page.csrf) : {})}>
        <input type="hidden" name="_csrf" value={page.csrf} />
        <input type="hidden" name="auth_method" value={method} />
        <fieldset>
          <legend safe>{t('erp.form.general')}</legend>
          <Field {...common} name="name" />
          <Field {...common} name="base_url" type="url" />
          <Choice
            {...common}
            name="odata_version"
            options={[
              { value: 'v2', label: 'OData V2' },
              { value: 'v4', label: 'OData V4' },
            ]}
          />
          <Field {...common} name="sap_client" />
        </fieldset>
        <fieldset>
          <legend safe>{t('erp.form.credentials', { method: t(`erp.auth.${method}`) })}</legend>
          {METHOD_FIELDS[method].map((name) =>
            name === 'token_endpoint_auth_method' ? (
              <Choice
                {...common}
                name={name}
                options={[
                  { value: 'client_secret_post', label: 'client_secret_post' },
                  { value: 'client_secret_basic', label: 'client_secret_basic' },
                ]}
              />
            ) : (
              <>
                <Field {...common} name={name} type={name === 'token_url' ? 'url' : 'text'} />
                {FILE_OF[name] ? <FileField page={page} name={FILE_OF[name]} /> : ''}
              </>
            ),
          )}
          <Field {...common} name="ca_certificates" />
        </fieldset>
        <fieldset>
          <legend safe>{t('erp.form.pulling')}</legend>
          <Field {...common} name="schedule" />
          <SchedulePreview page={page} runs={props.nextRuns} timeZone={props.timeZone} />
          <Choice {...common} name="enabled" options={yesNo} />
          <fieldset class="entities" aria-describedby={describedBy('f-entities', errors.entities)}>
            <legend safe>{t('erp.form.entitiesLegend')}</legend>
            {(['customers', 'receivables'] as const).map((entity) => (
              <label class="check">
                <input type="checkbox" name="entities" value={entity} checked={values.entities.includes(entity)} />{' '}
                <span safe>{t(`erp.form.${entity}`)}</span>
              </label>
            ))}
            <p class="help" id="f-entities-help" safe>
              {t('erp.field.entitiesHelp')}
            </p>
            <FieldError id="f-entities" message={errors.entities} />
          </fieldset>
        </fieldset>
        <details open={ADVANCED.some((name) => errors[name]) || undefined}>
          <summary safe>{t('erp.form.advanced')}</summary>
          <Choice {...common} name="fetch_invoice_pdfs" options={yesNo} />
          <Field {...common} name="currency" />
          <Field {...common} name="page_size" type="number" />
          <Field {...common} name="service_paths[customers]" />
          <Field {...common} name="service_paths[receivables]" />
          <div class="field">
            <label for="f-mapping" safe>
              {t('erp.field.mapping')}
            </label>
            <textarea
              id="f-mapping"
              name="mapping"
              rows="8"
              spellcheck="false"
              aria-invalid={errors.mapping ? 'true' : undefined}
              aria-describedby={describedBy('f-mapping', errors.mapping)}
              safe
            >
              {values.fields.mapping ?? ''}
            </textarea>
            <p class="help" id="f-mapping-help" safe>
              {t('erp.field.mappingHelp')}
            </p>
            <FieldError id="f-mapping" message={errors.mapping} />
          </div>
        </details>
        <p class="actions">
          <button type="submit" safe>
            {t(id ? 'erp.form.save' : 'erp.form.create')}
          </button>{' '}
          <a href={id ? base : '/integrations/erp'} safe>
            {t('erp.form.cancel')}
          </a>
        </p>
      </form>
    </Layout>
  );
}

/** The advanced section opens by itself when one of its fields has an error. */
const ADVANCED = [
  'fetch_invoice_pdfs',
  'currency',
  'page_size',
  'service_paths[customers]',
  'service_paths[receivables]',
  'service_paths',
  'mapping',
];
