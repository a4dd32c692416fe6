// The company's API keys: the list with their state and expiry, renew and revoke per key, the form that
// creates one, and the page that shows a new key's secret once.
import type { ApiKeyView } from '../../../api-keys/api-keys.service.js';
import { toPublicId } from '../../../common/ids.js';
import { describedBy, FieldError, Flash } from '../../dunning/views/tabs.js';
import type { PageContext } from '../../views/layout.js';
import { FreshSecret, KeyExpiryBanner, KeysLayout } from './key-parts.js';

export interface ApiKeysProps {
  keys: ApiKeyView[];
  expiring: ApiKeyView[];
  notice?: string;
  error?: string;
  form?: { name: string; error?: string };
}

export function ApiKeysPage({ page, props }: { page: PageContext; props: ApiKeysProps }) {
  const { t } = page.lang;
  return (
    <KeysLayout page={page} title={t('keys.apiKeys.title')}>
      <Flash notice={props.notice} error={props.error} />
      <KeyExpiryBanner page={page} keys={props.expiring} />
      <p safe>{t('keys.apiKeys.intro')}</p>
      {props.keys.length === 0 ? <p safe>{t('keys.apiKeys.none')}</p> : <KeyTable page={page} keys={props.keys} />}
      <CreateForm page={page} form={props.form} />
    </KeysLayout>
  );
}

function KeyTable({ page, keys }: { page: PageContext; keys: ApiKeyView[] }) {
  const { t, dateTime } = page.lang;
  return (
    <section class="card" aria-labelledby="keys-h">
      <h2 id="keys-h" safe>
        {t('keys.apiKeys.title')}
      </h2>
      <table>
        <thead>
          <tr>
            {['name', 'prefix', 'created', 'lastUsed', 'expires', 'state', 'actions'].map((column) => (
              <th scope="col" safe>
                {t(`keys.apiKeys.${column}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {keys.map(({ key, status }) => {
            const id = toPublicId('key', key.id);
            const usable = status === 'active' || status === 'expiring';
            return (
              <tr data-key={id}>
                <td safe>{key.name}</td>
                <td>
                  <code safe>{`${key.keyPrefix}…`}</code>
                </td>
                <td safe>{dateTime(key.createdAt)}</td>
                <td safe>{key.lastUsedAt ? dateTime(key.lastUsedAt) : t('keys.apiKeys.neverUsed')}</td>
                <td safe>{dateTime(key.expiresAt)}</td>
                <td>
                  <span class="status" data-status={status} safe>
                    {t(`keys.apiKeys.status.${status}`)}
                  </span>
                </td>
                <td>
                  {usable ? (
                    <div class="buttons">
                      <form method="post" action={`/integrations/api-keys/${id}/rotate`} class="inline">
                        <input type="hidden" name="_csrf" value={page.csrf} />
                        <button type="submit" aria-label={t('keys.apiKeys.rotateLabel', { name: key.name })} safe>
                          {t('keys.apiKeys.rotate')}
                        </button>
                      </form>
                      <a href={`/integrations/api-keys/${id}/revoke`} aria-label={t('keys.apiKeys.revokeLabel', { name: key.name })} safe>
                        {t('keys.apiKeys.revoke')}
                      </a>
                    </div>
                  ) : (
                    ''
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function CreateForm({ page, form }: { page: PageContext; form?: ApiKeysProps['form'] }) {
  const { t } = page.lang;
  return (
    <section class="card" aria-labelledby="create-h">
      <h2 id="create-h" safe>
        {t('keys.apiKeys.createTitle')}
      </h2>
      <form method="post" action="/integrations/api-keys">
        <input type="hidden" name="_csrf" value={page.csrf} />
        <div class="field">
          <label for="key-name" safe>
            {t('keys.apiKeys.name')}
          </label>
          <input
            id="key-name"
            name="name"
            maxlength="100"
            required
            value={form?.name ?? ''}
            aria-invalid={form?.error ? 'true' : undefined}
            aria-describedby={describedBy('key-name', form?.error)}
          />
          <p class="help" id="key-name-help" safe>
            {t('keys.apiKeys.nameHelp')}
          </p>
          <FieldError id="key-name" message={form?.error} />
        </div>
        <button type="submit" safe>
          {t('keys.apiKeys.create')}
        </button>
      </form>
    </section>
  );
}

/** A key just created or renewed: its secret this once; a renewal says until when the old key works. */
export function NewKeyPage({
  page,
  view,
  secret,
  previousUntil,
}: {
  page: PageContext;
  view: ApiKeyView;
  secret: string;
  previousUntil?: Date;
}) {
  const { t, dateTime } = page.lang;
  return (
    <KeysLayout page={page} title={t(previousUntil ? 'keys.apiKeys.rotatedTitle' : 'keys.apiKeys.newTitle')}>
      {previousUntil ? <p safe>{t('keys.apiKeys.rotatedText', { until: dateTime(previousUntil) })}</p> : ''}
      <FreshSecret page={page} id="new-key" label={`${t('keys.secret.label')}: ${view.key.name}`} value={secret} />
      <p>
        <a href="/integrations/api-keys" safe>
          {t('keys.secret.back')}
        </a>
      </p>
    </KeysLayout>
  );
}
