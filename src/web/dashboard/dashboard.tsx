// The dashboard: what is open and what is overdue, by dunning stage and by age.
import type { DashboardFigures } from './dashboard.repository.js';
import { CollectedChart } from '../views/collected-chart.js';
import { Layout, type PageContext } from '../views/layout.js';
import { DashboardKeyBanner } from '../integrations-keys/views/key-parts.js';
import { NeedsYouCard } from './needs-you.js';
import type { NeedsYou } from './needs-you.repository.js';

export function DashboardPage({ page, figures, needsYou }: { page: PageContext; figures: DashboardFigures; needsYou: NeedsYou }) {
  const { t, money } = page.lang;
  return (
    <Layout page={page} title={t('dashboard.title')}>
      <DashboardKeyBanner page={page} />
      <NeedsYouCard page={page} counts={needsYou} />
      <div class="grid">
        <section class="card" aria-labelledby="open-h">
          <h2 id="open-h" safe>
            {t('dashboard.open')}
          </h2>
          <p class="figure" data-figure="open" safe>
            {money(figures.open.amount)}
          </p>
          <p class="sub" safe>
            {t('dashboard.invoices', { count: figures.open.count })}
          </p>
        </section>
        <section class="card" aria-labelledby="overdue-h">
          <h2 id="overdue-h" safe>
            {t('dashboard.overdue')}
          </h2>
          <p class="figure overdue" data-figure="overdue" safe>
            {money(figures.overdue.amount)}
          </p>
          <p class="sub" safe>
            {t('dashboard.invoices', { count: figures.overdue.count })}
          </p>
        </section>
        <section class="card" aria-labelledby="dso-h">
          <h2 id="dso-h" safe>
            {t('dashboard.dso')}
          </h2>
          <p class="figure" data-figure="dso" safe>
            {figures.dso === null ? t('dashboard.noDso') : t('dashboard.dsoDays', { count: figures.dso })}
          </p>
        </section>
      </div>
      <div class="grid">
        <section class="card" aria-labelledby="stage-h">
          <h2 id="stage-h" safe>
            {t('dashboard.byStage')}
          </h2>
          <FigureTable
            page={page}
            head={t('dashboard.stage')}
            rows={figures.byStage.map((row) => ({ key: row.stage, label: t(`stage.${row.stage}`), ...row }))}
          />
        </section>
        <section class="card" aria-labelledby="aging-h">
          <h2 id="aging-h" safe>
            {t('dashboard.aging')}
          </h2>
          <FigureTable
            page={page}
            head={t('dashboard.bucket')}
            rows={Object.entries(figures.aging).map(([bucket, row]) => ({ key: bucket, label: t(`aging.${bucket}`), ...row }))}
          />
        </section>
      </div>
      <section class="card" aria-labelledby="collected-h">
        <h2 id="collected-h" safe>
          {t('dashboard.collected')}
        </h2>
        <CollectedChart page={page} months={figures.collected} />
      </section>
    </Layout>
  );
}

function FigureTable({
  page,
  head,
  rows,
}: {
  page: PageContext;
  head: string;
  rows: Array<{ key: string; label: string; count: number; amount: string }>;
}) {
  const { t, money, count } = page.lang;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col" safe>
            {head}
          </th>
          <th scope="col" class="num" safe>
            {t('dashboard.count')}
          </th>
          <th scope="col" class="num" safe>
            {t('dashboard.amount')}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr data-row={row.key}>
            <th scope="row" safe>
              {row.label}
            </th>
            <td class="num" safe>
              {count(row.count)}
            </td>
            <td class="num" safe>
              {money(row.amount)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
