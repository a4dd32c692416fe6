// The pieces the proposal and the waiting list share: the charge columns, a sum row, the page's query.
import { Decimal } from '../../../common/money.js';
import type { IssuedReminder } from '../../../dunning/dunning-run.repository.js';
import type { PageContext } from '../../views/layout.js';
import type { Sums } from '../workbench.service.js';

export interface WorkbenchQuery {
  date: string;
  stage: string;
  customer: string;
}

/** Fee, flat fee, default interest and their sum, formatted; four empty cells without a reminder. */
export function chargesOf(page: PageContext, reminder: IssuedReminder | undefined): string[] {
  if (!reminder) return ['', '', '', ''];
  const sum = new Decimal(reminder.fee).plus(reminder.flatFee).plus(reminder.defaultInterest).toFixed(2);
  return [reminder.fee, reminder.flatFee, reminder.defaultInterest, sum].map((amount) => page.lang.money(amount));
}

export function ChargeHeads({ page }: { page: PageContext }) {
  const { t } = page.lang;
  return (
    <>
      {(['fee', 'flatFee', 'interest', 'charges'] as const).map((key) => (
        <th scope="col" class="num" safe>
          {t(`dunning.workbench.${key}`)}
        </th>
      ))}
    </>
  );
}

/** A sum row: label, open amount, an empty cell for the move/stage column, the charges; `lead` empty cells before. */
export function SumRow({
  page,
  label,
  sums,
  lead,
  trail = 0,
}: {
  page: PageContext;
  label: string;
  sums: Sums;
  lead: number;
  trail?: number;
}) {
  const { money } = page.lang;
  return (
    <tr class="sum">
      {lead ? <td colspan={String(lead)}></td> : ''}
      <th scope="row" safe>
        {label}
      </th>
      <td class="num" safe>
        {money(sums.open)}
      </td>
      <td></td>
      {[sums.fee, sums.flatFee, sums.interest, sums.charges].map((amount) => (
        <td class="num" safe>
          {money(amount)}
        </td>
      ))}
      {trail ? <td colspan={String(trail)}></td> : ''}
    </tr>
  );
}
