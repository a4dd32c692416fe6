// The reminders waiting for approval (policy auto_ship off): select some or take all shown, see what is
// about to be sent, preview any one of them, then approve or reject.
import { toPublicId } from '../../../common/ids.js';
import type { PageContext } from '../../views/layout.js';
import type { Workbench } from '../workbench.service.js';
import { ChargeHeads, chargesOf, SumRow, type WorkbenchQuery } from './tables.js';

export function WaitingForm({ page, data, query }: { page: PageContext; data: Workbench; query: WorkbenchQuery }) {
  const { t, money, date } = page.lang;
  const sums = data.waitingSums;
  const previewQuery = query.date ? `?date=${encodeURIComponent(query.date)}` : '';
  return (
    <section class="card" aria-labelledby="waiting-h">
      <h2 id="waiting-h" safe>
        {t('dunning.workbench.waiting')}
      </h2>
      {sums.count === 0 ? (
        <p safe>{t('dunning.workbench.noneWaiting')}</p>
      ) : (
        <form class="dunning" method="post" action="/dunning/decisions">
          <input type="hidden" name="_csrf" value={page.csrf} />
          <input type="hidden" name="date" value={query.date} />
          <input type="hidden" name="stage" value={query.stage} />
          <input type="hidden" name="customer" value={query.customer} />
          <table data-table="waiting">
            <thead>
              <tr>
                <th scope="col" safe>
                  {t('dunning.workbench.select')}
                </th>
                <th scope="col" safe>
                  {t('dunning.workbench.invoice')}
                </th>
                <th scope="col" class="num" safe>
                  {t('dunning.workbench.openAmount')}
                </th>
                <th scope="col" safe>
                  {t('dunning.workbench.stage')}
                </th>
                <ChargeHeads page={page} />
                <th scope="col" safe>
                  {t('dunning.workbench.proposedOn')}
                </th>
                <th scope="col" safe>
                  {t('dunning.workbench.preview')}
                </th>
              </tr>
            </thead>
            {data.waiting.map((group) => (
              <tbody>
                <tr class="group">
                  <th scope="colgroup" colspan="10">
                    <a href={`/customers/${toPublicId('cus', group.customerId)}`} safe>
                      {group.customerName}
                    </a>
                  </th>
                </tr>
                {group.rows.map(({ invoice, waiting }) => {
                  const id = toPublicId('inv', invoice.id);
                  const number = invoice.invoiceNumber ?? id;
                  return (
                    <tr data-invoice={id}>
                      <td>
                        <input type="hidden" name="shown" value={id} />
                        <input
                          type="checkbox"
                          name="ids"
                          value={id}
                          id={`pick-${id}`}
                          aria-label={t('dunning.workbench.selectOne', { number })}
                        />
                      </td>
                      <td>
                        <a href={`/invoices/${id}`} safe>
                          {number}
                        </a>
                      </td>
                      <td class="num" safe>
                        {money(invoice.openAmount)}
                      </td>
                      <td safe>{t(`dunning.action.ready_for_reminder${waiting.stage}`)}</td>
                      {chargesOf(page, waiting.charges).map((amount) => (
                        <td class="num" safe>
                          {amount}
                        </td>
                      ))}
                      <td safe>{waiting.expired ? t('dunning.workbench.expired') : date(waiting.businessDate)}</td>
                      <td>
                        <a href={`/dunning/preview/${id}${previewQuery}`} aria-label={t('dunning.workbench.previewOf', { number })} safe>
                          {t('dunning.workbench.preview')}
                        </a>
                      </td>
                    </tr>
                  );
                })}
                <SumRow page={page} label={t('dunning.workbench.sum', { name: group.customerName })} sums={group.sums} lead={1} trail={2} />
              </tbody>
            ))}
            <tfoot>
              <SumRow page={page} label={t('dunning.workbench.total')} sums={sums} lead={1} trail={2} />
            </tfoot>
          </table>
          <p data-about-to-send safe>
            {t('dunning.workbench.aboutToSend', { count: sums.count, charges: money(sums.charges), open: money(sums.open) })}
          </p>
          <label for="reason" safe>
            {t('dunning.workbench.reason')}
          </label>
          <input id="reason" name="reason" type="text" maxlength="500" />
          <div>
            <button type="submit" name="decision" value="approve" safe>
              {t('dunning.workbench.approveSelected')}
            </button>
            <button type="submit" name="decision" value="all" safe>
              {t('dunning.workbench.approveAll', { count: sums.count })}
            </button>
            <button type="submit" name="decision" value="reject" class="secondary" safe>
              {t('dunning.workbench.rejectSelected')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
