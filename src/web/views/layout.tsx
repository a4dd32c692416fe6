// The frame of every page: language, the stylesheet and htmx (both served by us), the navigation of a
// signed-in user with the language switch and sign-out (POST forms with the CSRF token). Every
// expression is written with `safe` (escaped), catalogue strings too: i18next does not escape
// interpolated values (i18n.ts), and `npm run lint:xss` holds the rule.
import type { Children } from '@kitajs/html';
import { ASSET_URLS } from '../assets/web-assets.js';
import type { Lang } from '../i18n.js';

export interface PageContext {
  lang: Lang;
  /** The CSRF token for the page's forms. */
  csrf: string;
  /** The signed-in user; absent on the sign-in page and the error pages of a signed-out visitor. */
  user?: { email: string; companyName: string; role: 'owner' | 'member' };
  /** Where the language switch returns to. */
  path: string;
}

/** The main navigation of a signed-in user; a member does not see the owners' settings. */
const NAV = [
  { href: '/dashboard', key: 'nav.dashboard' },
  { href: '/invoices', key: 'nav.invoices' },
  { href: '/customers', key: 'nav.customers' },
  { href: '/dunning', key: 'dunning.nav' },
  { href: '/exceptions/shipments', key: 'exceptions.nav.title' },
  { href: '/integrations/erp', key: 'nav.integrations', current: '/integrations' },
  { href: '/team', key: 'account.nav' },
  { href: '/settings/company', key: 'nav.settings', current: '/settings', ownerOnly: true },
] as const;

/** A navigation entry is current on its page and on the pages below it (/invoices/inv-…). */
function isCurrent(path: string, href: string): boolean {
  const bare = path.split('?')[0];
  return bare === href || bare.startsWith(`${href}/`);
}

export function Layout({ page, title, children }: { page: PageContext; title: string; children: Children }) {
  const { t, locale } = page.lang;
  return (
    <>
      {'<!doctype html>'}
      <html lang={locale}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{`${title} · ${t('app.name')}`}</title>
          {/* No favicon: an empty one spares the browser a request that would only find a 404. */}
          <link rel="icon" href="data:," />
          <link rel="stylesheet" href={ASSET_URLS.stylesheet} />
          <script src={ASSET_URLS.htmx} defer></script>
          <script src={ASSET_URLS.script} defer></script>
        </head>
        <body>
          <a class="skip" href="#content" safe>
            {t('app.skip')}
          </a>
          <header class="top">
            <a href="/dashboard" safe>
              {t('app.name')}
            </a>
            <nav aria-label={t('app.nav')}>
              <ul>
                {page.user ? (
                  <>
                    {NAV.filter((entry) => page.user?.role === 'owner' || !('ownerOnly' in entry)).map((entry) => (
                      <li>
                        <a
                          href={entry.href}
                          aria-current={isCurrent(page.path, 'current' in entry ? entry.current : entry.href) ? 'page' : undefined}
                          safe
                        >
                          {t(entry.key)}
                        </a>
                      </li>
                    ))}
                    <li class="company" safe>
                      {page.user.companyName}
                    </li>
                  </>
                ) : (
                  ''
                )}
                <li>
                  <form method="post" action="/language">
                    <input type="hidden" name="_csrf" value={page.csrf} />
                    <input type="hidden" name="locale" value={locale === 'de' ? 'en' : 'de'} />
                    <input type="hidden" name="back" value={page.path} />
                    <button type="submit" lang={locale === 'de' ? 'en' : 'de'} safe>
                      {t('nav.switchTo')}
                    </button>
                  </form>
                </li>
                {page.user ? (
                  <li>
                    <form method="post" action="/sign-out">
                      <input type="hidden" name="_csrf" value={page.csrf} />
                      <button type="submit" safe>
                        {t('nav.signOut')}
                      </button>
                    </form>
                  </li>
                ) : (
                  ''
                )}
              </ul>
            </nav>
          </header>
          <main id="content">
            <h1 safe>{title}</h1>
            {children}
          </main>
        </body>
      </html>
    </>
  );
}
