// The dunning pages' own navigation, and the small pieces their forms share.
import type { PageContext } from '../../views/layout.js';

const TABS = [
  { href: '/dunning', key: 'dunning.tabs.workbench' },
  { href: '/dunning/runs', key: 'dunning.tabs.runs' },
  { href: '/dunning/policy', key: 'dunning.tabs.policy' },
  { href: '/dunning/base-rates', key: 'dunning.tabs.baseRates' },
] as const;

export function DunningTabs({ page, current }: { page: PageContext; current: (typeof TABS)[number]['href'] }) {
  const { t } = page.lang;
  return (
    <nav class="tabs" aria-label={t('dunning.tabs.label')}>
      <ul>
        {TABS.map(({ href, key }) => (
          <li>
            <a href={href} aria-current={href === current ? 'page' : undefined} safe>
              {t(key)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The message beside a field, tied to it by `aria-describedby` (id `<field id>-error`). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p class="field-error" id={`${id}-error`} safe>
      {message}
    </p>
  ) : (
    ''
  );
}

/** The ids that describe a field: its help line and, when there is one, its error. */
export function describedBy(id: string, error: string | undefined, help = true): string | undefined {
  const ids = [help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

export function Flash({ notice, error }: { notice?: string; error?: string }) {
  return (
    <>
      {notice ? (
        <p class="notice" role="status" safe>
          {notice}
        </p>
      ) : (
        ''
      )}
      {error ? (
        <p class="error" role="alert" safe>
          {error}
        </p>
      ) : (
        ''
      )}
    </>
  );
}
