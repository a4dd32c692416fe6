// Pieces of the key pages: a fresh secret (shown once, in a read-only input with a copy button wired by
// the app's script), the confirmation page of an action that cannot be undone, and the expiry banner.
import type { ApiKeyView } from '../../../api-keys/api-keys.service.js';
import { Layout, type PageContext } from '../../views/layout.js';
import { INTEGRATIONS_LINKS, SectionNav } from '../../views/section-nav.js';
import type { Children } from '@kitajs/html';

export function KeysLayout({ page, title, children }: { page: PageContext; title: string; children: Children }) {
  return (
    <Layout page={page} title={title}>
      <SectionNav page={page} label={page.lang.t('nav.integrationsLabel')} links={INTEGRATIONS_LINKS} />
      {children}
    </Layout>
  );
}

/** A secret the user sees this once: selectable without JavaScript, copied with it. */
export function FreshSecret({ page, id, label, value }: { page: PageContext; id: string; label: string; value: string }) {
  const { t } = page.lang;
  return (
    <section class="card secret" aria-labelledby={`${id}-label`}>
      <p class="notice" role="status" id={`${id}-once`} safe>
        {t('keys.secret.once')}
      </p>
      <div class="field">
        <label id={`${id}-label`} for={id} safe>
          {label}
        </label>
        <input id={id} type="text" readonly value={value} autocomplete="off" spellcheck="false" aria-describedby={`${id}-once`} />
      </div>
      <button type="button" data-copy={id} data-copied={t('keys.secret.copied')} safe>
        {t('keys.secret.copy')}
      </button>
    </section>
  );
}

/** The question before an action that cannot be undone, its consequence, and the one button that does it. */
export function ConfirmPage({
  page,
  title,
  consequence,
  action,
  confirm,
  back,
}: {
  page: PageContext;
  title: string;
  consequence: string;
  action: string;
  confirm: string;
  back: string;
}) {
  const { t } = page.lang;
  return (
    <KeysLayout page={page} title={title}>
      <p class="error" safe>
        {consequence}
      </p>
      <form method="post" action={action} class="buttons">
        <input type="hidden" name="_csrf" value={page.csrf} />
        <button type="submit" class="danger" safe>
          {confirm}
        </button>
        <a href={back} safe>
          {t('keys.cancel')}
        </a>
      </form>
    </KeysLayout>
  );
}

/** Keys near their expiry (the API's `expiring`): a warning with a link to renew them; nothing otherwise. */
export function KeyExpiryBanner({ page, keys }: { page: PageContext; keys: ApiKeyView[] }) {
  const { t } = page.lang;
  if (keys.length === 0) return '';
  const names = keys.map((view) => view.key.name).join(', ');
  return (
    <div class="error key-expiry" data-key-expiry>
      <p safe>{t('keys.apiKeys.banner', { count: keys.length, names })}</p>
      <a href="/integrations/api-keys" safe>
        {t('keys.apiKeys.bannerLink')}
      </a>
    </div>
  );
}

/**
 * The dashboard's place for the banner (owners only): filled in by htmx from the key pages, so that the
 * dashboard needs no knowledge of keys. Without JavaScript the banner shows on the key page alone.
 */
export function DashboardKeyBanner({ page }: { page: PageContext }) {
  if (page.user?.role !== 'owner') return '';
  return <div hx-get="/integrations/api-keys/expiry-banner" hx-trigger="load" hx-swap="outerHTML"></div>;
}
