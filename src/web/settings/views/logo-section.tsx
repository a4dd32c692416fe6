// The letterhead's logo on the shipping settings page: the current one as a preview (served by the
// session-checked GET /settings/shipping/logo), an upload form and a remove button.
import { describedBy, FieldError } from '../../dunning/views/tabs.js';
import type { PageContext } from '../../views/layout.js';

export function LogoSection({ page, hasLogo, error }: { page: PageContext; hasLogo: boolean; error?: string }) {
  const { t } = page.lang;
  return (
    <section class="card settings-logo" aria-labelledby="logo-title">
      <h2 id="logo-title" safe>
        {t('settings.logo.title')}
      </h2>
      {hasLogo ? (
        <figure>
          <img src="/settings/shipping/logo" alt={t('settings.logo.current')} class="logo-preview" />
          <figcaption safe>{t('settings.logo.current')}</figcaption>
        </figure>
      ) : (
        <p safe>{t('settings.logo.none')}</p>
      )}
      <form method="post" action="/settings/shipping/logo" enctype="multipart/form-data" novalidate>
        <input type="hidden" name="_csrf" value={page.csrf} />
        <div>
          <label for="logo" safe>
            {t('settings.logo.file')}
          </label>
          <input
            id="logo"
            name="logo"
            type="file"
            accept="image/png,image/jpeg"
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={describedBy('logo', error)}
          />
          <p class="help" id="logo-help" safe>
            {t('settings.logo.help')}
          </p>
          <FieldError id="logo" message={error} />
        </div>
        <button type="submit" safe>
          {t('settings.logo.upload')}
        </button>
      </form>
      {hasLogo ? (
        <form method="post" action="/settings/shipping/logo/remove">
          <input type="hidden" name="_csrf" value={page.csrf} />
          <button type="submit" class="secondary" safe>
            {t('settings.logo.remove')}
          </button>
        </form>
      ) : (
        ''
      )}
    </section>
  );
}
