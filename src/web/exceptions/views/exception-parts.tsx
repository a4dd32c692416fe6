// Parts of every exception and push page: the section's own navigation, the notices of the last action,
// and the pager of a list (plain links that keep the filters).
import type { PageMeta } from '../../../common/pagination.js';
import type { PageContext } from '../../views/layout.js';
import type { Notice } from '../exception-pages.js';

const SECTIONS = [
  { href: '/exceptions/shipments', key: 'shipments' },
  { href: '/exceptions/blocked', key: 'blocked' },
  { href: '/exceptions/erp-pulls', key: 'erpPulls' },
  { href: '/push/documents', key: 'documents' },
  { href: '/push/dead-letters', key: 'deadLetters' },
  { href: '/push/audit-log', key: 'auditLog' },
] as const;

export function SectionNav({ page }: { page: PageContext }) {
  const { t } = page.lang;
  const path = page.path.split('?')[0];
  return (
    <nav class="subnav" aria-label={t('exceptions.nav.label')}>
      <ul>
        {SECTIONS.map(({ href, key }) => (
          <li>
            <a href={href} aria-current={path === href || path.startsWith(`${href}/`) ? 'page' : undefined} safe>
              {t(`exceptions.nav.${key}`)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Notices({ page, notices }: { page: PageContext; notices: Notice[] }) {
  const { t } = page.lang;
  return (
    <>
      {notices.map((notice) =>
        notice.error ? (
          <p class="error" role="alert" safe>
            {t(notice.key, notice.values)}
          </p>
        ) : (
          <p class="notice" role="status" safe>
            {t(notice.key, notice.values)}
          </p>
        ),
      )}
    </>
  );
}

/** Previous / next links of a list; `query` are the filters the links keep. */
export function Pager({ page, meta, path, query }: { page: PageContext; meta: PageMeta; path: string; query: Record<string, string> }) {
  const { t, count } = page.lang;
  if (meta.total_pages <= 1) return <></>;
  const link = (n: number) => `${path}?${new URLSearchParams({ ...query, page: String(n) }).toString()}`;
  return (
    <nav class="pager" aria-label={t('exceptions.pager.label')}>
      {meta.prev_page ? (
        <a href={link(meta.prev_page)} rel="prev" safe>
          {t('exceptions.pager.previous')}
        </a>
      ) : (
        ''
      )}
      <span safe>
        {t('exceptions.pager.position', { page: count(meta.current_page), pages: count(meta.total_pages), total: count(meta.total_count) })}
      </span>
      {meta.next_page ? (
        <a href={link(meta.next_page)} rel="next" safe>
          {t('exceptions.pager.next')}
        </a>
      ) : (
        ''
      )}
    </nav>
  );
}

/** The filters that are set, for the pager's links. */
export function setQuery(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => Boolean(entry[1])));
}
