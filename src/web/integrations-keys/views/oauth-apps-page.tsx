// The company's OAuth applications: the list with client id and redirect URIs, the actions per
// application (new secret, revoke access, delete — each behind a confirmation), the registration form
// with the API's messages beside its fields, and the page that shows a client secret once.
import { toPublicId } from '../../../common/ids.js';
import type { OAuthApplication } from '../../../oauth/oauth-applications.repository.js';
import type { FieldErrors } from '../../dunning/dunning-pages.js';
import { describedBy, FieldError, Flash } from '../../dunning/views/tabs.js';
import type { PageContext } from '../../views/layout.js';
import { FreshSecret, KeysLayout } from './key-parts.js';

export interface OAuthAppsProps {
  applications: OAuthApplication[];
  notice?: string;
  form?: { name: string; redirectUris: string; errors: FieldErrors };
}

export function OAuthAppsPage({ page, props }: { page: PageContext; props: OAuthAppsProps }) {
  const { t } = page.lang;
  return (
    <KeysLayout page={page} title={t('keys.oauthApps.title')}>
      <Flash notice={props.notice} error={props.form ? t('keys.oauthApps.invalid') : undefined} />
      <p safe>{t('keys.oauthApps.intro')}</p>
      {props.applications.length === 0 ? (
        <p safe>{t('keys.oauthApps.none')}</p>
      ) : (
        <AppTable page={page} applications={props.applications} />
      )}
      <RegisterForm page={page} form={props.form} />
    </KeysLayout>
  );
}

const ACTIONS = [
  { path: 'regenerate', key: 'regenerate' },
  { path: 'revoke-tokens', key: 'revokeTokens' },
  { path: 'delete', key: 'delete' },
] as const;

function AppTable({ page, applications }: { page: PageContext; applications: OAuthApplication[] }) {
  const { t, dateTime } = page.lang;
  return (
    <section class="card" aria-labelledby="apps-h">
      <h2 id="apps-h" safe>
        {t('keys.oauthApps.title')}
      </h2>
      <table>
        <thead>
          <tr>
            {['name', 'clientId', 'redirectUris', 'created', 'actions'].map((column) => (
              <th scope="col" safe>
                {t(`keys.oauthApps.${column}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {applications.map((application) => {
            const id = toPublicId('app', application.id);
            return (
              <tr data-app={id}>
                <td safe>{application.name}</td>
                <td>
                  <code data-client-id safe>
                    {application.clientId}
                  </code>
                </td>
                <td>
                  <ul class="plain">
                    {application.redirectUris.map((uri) => (
                      <li safe>{uri}</li>
                    ))}
                  </ul>
                </td>
                <td safe>{dateTime(application.createdAt)}</td>
                <td>
                  <ul class="plain">
                    {ACTIONS.map(({ path, key }) => (
                      <li>
                        <a
                          href={`/integrations/oauth-apps/${id}/${path}`}
                          aria-label={t(`keys.oauthApps.${key}Label`, { name: application.name })}
                          safe
                        >
                          {t(`keys.oauthApps.${key}`)}
                        </a>
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function RegisterForm({ page, form }: { page: PageContext; form?: OAuthAppsProps['form'] }) {
  const { t } = page.lang;
  const errors = form?.errors ?? {};
  const uriError = errors.redirect_uris ?? Object.entries(errors).find(([field]) => field.startsWith('redirect_uris'))?.[1];
  return (
    <section class="card" aria-labelledby="register-h">
      <h2 id="register-h" safe>
        {t('keys.oauthApps.registerTitle')}
      </h2>
      <form method="post" action="/integrations/oauth-apps">
        <input type="hidden" name="_csrf" value={page.csrf} />
        <div class="field">
          <label for="app-name" safe>
            {t('keys.oauthApps.name')}
          </label>
          <input
            id="app-name"
            name="name"
            maxlength="100"
            required
            value={form?.name ?? ''}
            aria-invalid={errors.name ? 'true' : undefined}
            aria-describedby={describedBy('app-name', errors.name, false)}
          />
          <FieldError id="app-name" message={errors.name} />
        </div>
        <div class="field">
          <label for="app-redirect-uris" safe>
            {t('keys.oauthApps.redirectUris')}
          </label>
          <textarea
            id="app-redirect-uris"
            name="redirect_uris"
            rows="3"
            required
            aria-invalid={uriError ? 'true' : undefined}
            aria-describedby={describedBy('app-redirect-uris', uriError)}
            safe
          >
            {form?.redirectUris ?? ''}
          </textarea>
          <p class="help" id="app-redirect-uris-help" safe>
            {t('keys.oauthApps.redirectHelp')}
          </p>
          <FieldError id="app-redirect-uris" message={uriError} />
        </div>
        <button type="submit" safe>
          {t('keys.oauthApps.register')}
        </button>
      </form>
    </section>
  );
}

/** An application just registered, or its secret regenerated: the client id and the secret this once. */
export function NewSecretPage({
  page,
  application,
  secret,
  regenerated,
}: {
  page: PageContext;
  application: OAuthApplication;
  secret: string;
  regenerated?: boolean;
}) {
  const { t } = page.lang;
  const title = t(regenerated ? 'keys.oauthApps.secretTitle' : 'keys.oauthApps.newTitle', { name: application.name });
  return (
    <KeysLayout page={page} title={title}>
      {regenerated ? <p safe>{t('keys.oauthApps.secretText')}</p> : ''}
      <dl>
        <dt safe>{t('keys.oauthApps.clientId')}</dt>
        <dd>
          <code data-client-id safe>
            {application.clientId}
          </code>
        </dd>
      </dl>
      <FreshSecret page={page} id="client-secret" label={`${t('keys.secret.label')} (client_secret)`} value={secret} />
      <p>
        <a href="/integrations/oauth-apps" safe>
          {t('keys.secret.back')}
        </a>
      </p>
    </KeysLayout>
  );
}
