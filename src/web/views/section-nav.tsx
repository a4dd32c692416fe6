// The second-level navigation of the integrations and settings sections: each section's pages, the
// owners' pages hidden from a member (the server refuses them anyway: WebPages.owner).
import type { PageContext } from './layout.js';

export interface SectionLink {
  href: string;
  /** A key of the common catalogue (messages.de.ts `nav`). */
  key: string;
  ownerOnly?: boolean;
}

export const INTEGRATIONS_LINKS: SectionLink[] = [
  { href: '/integrations/erp', key: 'nav.erp' },
  { href: '/integrations/api-keys', key: 'nav.apiKeys', ownerOnly: true },
  { href: '/integrations/oauth-apps', key: 'nav.oauthApps', ownerOnly: true },
];

export const SETTINGS_LINKS: SectionLink[] = [
  { href: '/settings/company', key: 'nav.company', ownerOnly: true },
  { href: '/settings/shipping', key: 'nav.shipping', ownerOnly: true },
  { href: '/team', key: 'nav.team' },
];

export function SectionNav({ page, label, links }: { page: PageContext; label: string; links: SectionLink[] }) {
  const { t } = page.lang;
  const path = page.path.split('?')[0];
  return (
    <nav class="subnav" aria-label={label}>
      <ul>
        {links
          .filter((link) => !link.ownerOnly || page.user?.role === 'owner')
          .map(({ href, key }) => (
            <li>
              <a href={href} aria-current={path === href || path.startsWith(`${href}/`) ? 'page' : undefined} safe>
                {t(key)}
              </a>
            </li>
          ))}
      </ul>
    </nav>
  );
}
