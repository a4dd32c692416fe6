// The dunning workbench: the selection (business date, stage, customer), the proposal of a run for the
// date grouped by customer with its sums, and — in approval mode — the reminders waiting for approval.
import { toPublicId } from '../../../common/ids.js';
import { Layout, type PageContext } from '../../views/layout.js';
import type { FieldErrors } from '../dunning-pages.js';
import type { Workbench } from '../workbench.service.js';
import { describedBy, DunningTabs, FieldError, Flash } from './tabs.js';
import { ChargeHeads, chargesOf, SumRow, type WorkbenchQuery } from './tables.js';
import { WaitingForm } from './waiting.js';

export interface WorkbenchProps {
  query: WorkbenchQuery;
  data: Workbench | undefined;
  errors: FieldErrors;
  notice?: string;
  error?: string;
}

export function WorkbenchPage({ page, props }: { page: PageContext; props: WorkbenchProps }) {
  const { t, date } = page.lang;
  const { data } = props;
  return (
    <Layout page={page} title={t('dunning.workbench.title')}>
      <DunningTabs page={page} current="/dunning" />
      <Flash notice={props.notice} error={props.error} />
      <Filters page={page} props={props} />
      {data ? (
        <>
          <section class="card" aria-labelledby="proposal-h">
            <h2 id="proposal-h" safe>
              {t('dunning.workbench.proposal', { date: date(data.date) })}
            </h2>
            <p class="sub" safe>
              {data.policy.autoShip ? t('dunning.workbench.proposalHint') : t('dunning.workbench.approvalHint')}
            </p>
            {data.warnings.map((warning) => (
              <p class="notice" safe>
                {warning}
              </p>
            ))}
            <Proposal page={page} data={data} />
            <form class="dunning" method="post" action="/dunning/runs">
              <input type="hidden" name="_csrf" value={page.csrf} />
              <input type="hidden" name="date" value={props.query.date} />
              <button type="submit" safe>
                {t('dunning.workbench.runNow')}
              </button>
            </form>
          </section>
          {data.policy.autoShip && data.waitingSums.count === 0 ? '' : <WaitingForm page={page} data={data} query={props.query} />}
        </>
      ) : (
        ''
      )}
    </Layout>
  );
}

function Filters({ page, props }: { page: PageContext; props: WorkbenchProps }) {
  const { t } = page.lang;
  const { query, errors } = props;
  return (
    <form class="dunning card" method="get" action="/dunning" aria-labelledby="filters-h">
      <h2 id="filters-h" safe>
        {t('dunning.workbench.filters')}
      </h2>
      <div class="inline">
        <div>
          <label for="date" safe>
            {t('dunning.workbench.date')}
          </label>
          <input
            id="date"
            name="date"
            type="date"
            value={query.date}
            aria-invalid={errors.date ? 'true' : undefined}
            aria-describedby={describedBy('date', errors.date, false)}
          />
          <FieldError id="date" message={errors.date} />
        </div>
        <div>
          <label for="stage" safe>
            {t('dunning.workbench.stage')}
          </label>
          <select id="stage" name="stage" aria-describedby={describedBy('stage', errors.stage, false)}>
            <option value="" safe>
              {t('dunning.workbench.allStages')}
            </option>
            {['1', '2', '3'].map((stage) => (
              <option value={stage} selected={query.stage === stage} safe>
                {t(`dunning.action.ready_for_reminder${stage}`)}
              </option>
            ))}
          </select>
          <FieldError id="stage" message={errors.stage} />
        </div>
        <div>
          <label for="customer" safe>
            {t('dunning.workbench.customer')}
          </label>
          <select id="customer" name="customer" aria-describedby={describedBy('customer', errors.customer, false)}>
            <option value="" safe>
              {t('dunning.workbench.allCustomers')}
            </option>
            {(props.data?.customers ?? []).map((c) => (
              <option value={toPublicId('cus', c.id)} selected={query.customer === toPublicId('cus', c.id)} safe>
                {c.name}
              </option>
            ))}
          </select>
          <FieldError id="customer" message={errors.customer} />
        </div>
        <div>
          <button type="submit" safe>
            {t('dunning.workbench.show')}
          </button>
        </div>
      </div>
    </form>
  );
}

function Proposal({ page, data }: { page: PageContext; data: Workbench }) {
  const { t, money } = page.lang;
  if (data.proposal.length === 0) return <p safe>{t('dunning.workbench.nothing')}</p>;
  return (
    <table data-table="proposal">
      <thead>
        <tr>
          <th scope="col" safe>
            {t('dunning.workbench.invoice')}
          </th>
          <th scope="col" class="num" safe>
            {t('dunning.workbench.openAmount')}
          </th>
          <th scope="col" safe>
            {t('dunning.workbench.move')}
          </th>
          <ChargeHeads page={page} />
        </tr>
      </thead>
      {data.proposal.map((group) => (
        <tbody>
          <tr class="group">
            <th scope="colgroup" colspan="7">
              <a href={`/customers/${toPublicId('cus', group.customerId)}`} safe>
                {group.customerName}
              </a>
            </th>
          </tr>
          {group.rows.map((row) => (
            <tr data-invoice={toPublicId('inv', row.invoice.id)}>
              <td>
                <a href={`/invoices/${toPublicId('inv', row.invoice.id)}`} safe>
                  {row.invoice.invoiceNumber ?? toPublicId('inv', row.invoice.id)}
                </a>
              </td>
              <td class="num" safe>
                {money(row.invoice.openAmount)}
              </td>
              <td safe>{t(`dunning.action.${row.action}`)}</td>
              {chargesOf(page, row.reminder).map((amount) => (
                <td class="num" safe>
                  {amount}
                </td>
              ))}
            </tr>
          ))}
          <SumRow page={page} label={t('dunning.workbench.sum', { name: group.customerName })} sums={group.sums} lead={0} />
        </tbody>
      ))}
      <tfoot>
        <SumRow page={page} label={t('dunning.workbench.total')} sums={data.proposalSums} lead={0} />
      </tfoot>
    </table>
  );
}

export type { WorkbenchQuery } from './tables.js';
