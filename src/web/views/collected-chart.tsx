// Money collected per month as a server-rendered SVG bar chart (no script, no inline style), with the
// exact figures in a table beside it for screen readers and for reading off.
import type { PageContext } from './layout.js';

const WIDTH = 600;
const HEIGHT = 180;
/** Room below the bars for the month labels, set at an angle so twelve of them never run into each other. */
const LABELS = 56;

export function CollectedChart({ page, months }: { page: PageContext; months: Array<{ month: string; amount: string }> }) {
  const { t, money, month } = page.lang;
  const max = Math.max(0, ...months.map((m) => Number(m.amount)));
  const slot = WIDTH / months.length;
  return (
    <>
      <svg
        class="chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT + LABELS}`}
        role="img"
        aria-labelledby="collected-h"
        xmlns="http://www.w3.org/2000/svg"
      >
        {months.map((m, i) => {
          const height = max > 0 ? Math.round((Number(m.amount) / max) * HEIGHT) : 0;
          return (
            <g>
              <rect x={String(i * slot + 6)} y={String(HEIGHT - height)} width={String(slot - 12)} height={String(height)} fill="#0b5cad">
                <title safe>{`${month(m.month)}: ${money(m.amount)}`}</title>
              </rect>
              <text
                x={String(i * slot + slot / 2)}
                y={String(HEIGHT + 14)}
                text-anchor="end"
                transform={`rotate(-40 ${i * slot + slot / 2} ${HEIGHT + 14})`}
                font-size="11"
                fill="#1b1f24"
                safe
              >
                {month(m.month)}
              </text>
            </g>
          );
        })}
      </svg>
      <table>
        <thead>
          <tr>
            <th scope="col" safe>
              {t('dashboard.month')}
            </th>
            <th scope="col" class="num" safe>
              {t('dashboard.collectedAmount')}
            </th>
          </tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <tr data-month={m.month}>
              <th scope="row" safe>
                {month(m.month)}
              </th>
              <td class="num" safe>
                {money(m.amount)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
