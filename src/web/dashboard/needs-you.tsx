// The "needs you" card of the dashboard: each counter links to the list it counts; a zero says there is
// nothing to do.
import type { PageContext } from '../views/layout.js';
import { NEEDS_YOU, type NeedsYou, type NeedsYouKey } from './needs-you.repository.js';

/** The list behind each counter (URLS.md); null: no page yet. */
const LISTS: Record<NeedsYouKey, string | null> = {
  shipments: '/exceptions/shipments',
  approvals: '/dunning',
  deadLetters: '/push/dead-letters',
  failedPulls: '/exceptions/erp-pulls',
  blocked: '/exceptions/blocked',
};

export function NeedsYouCard({ page, counts }: { page: PageContext; counts: NeedsYou }) {
  const { t, count } = page.lang;
  return (
    <section class="card" aria-labelledby="needs-h">
      <h2 id="needs-h" safe>
        {t('needsYou.title')}
      </h2>
      <table>
        <thead>
          <tr>
            <th scope="col" safe>
              {t('needsYou.what')}
            </th>
            <th scope="col" class="num" safe>
              {t('needsYou.count')}
            </th>
          </tr>
        </thead>
        <tbody>
          {NEEDS_YOU.map((key) => {
            const href = LISTS[key];
            const label = t(`needsYou.${key}`);
            return (
              <tr data-needs={key}>
                <th scope="row">
                  {href ? (
                    <a href={href} safe>
                      {label}
                    </a>
                  ) : (
                    <span safe>{label}</span>
                  )}
                </th>
                <td class="num" data-count={String(counts[key])} safe>
                  {counts[key] === 0 ? t('needsYou.nothing') : count(counts[key])}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
