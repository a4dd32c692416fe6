// Shipments needing attention, grouped by reason: select and ship again, or correct the e-mail address
// or postal address of a row and ship it again. The checkboxes belong to the one retry form (form=…),
// so that every row can hold its own small forms.
import { toPublicId } from '../../../common/ids.js';
import type { PageMeta } from '../../../common/pagination.js';
import { Layout, type PageContext } from '../../views/layout.js';
import type { Notice } from '../exception-pages.js';
import type { ShipmentParties } from '../exceptions.repository.js';
import { type AttentionRow, GROUPS } from '../shipment-rows.js';
import { FixForms, type FixState } from './fix-forms.js';
import { Notices, Pager, SectionNav } from './exception-parts.js';

export interface ShipmentsProps {
  rows: AttentionRow[];
  meta: PageMeta;
  notices: Notice[];
  /** A fix form sent back with its errors. */
  fix?: FixState;
}

/** "Rechnung RE-1", "Mahnung 2 zu Rechnung RE-1": how the page and its notices name a document. */
export function documentLabel(page: PageContext, reminderId: string | null, parties: ShipmentParties | undefined): string {
  const { t } = page.lang;
  const number = parties?.invoiceNumber ?? t('exceptions.shipments.noNumber');
  return reminderId
    ? t('exceptions.shipments.reminder', { number, stage: parties?.reminderStage ?? '' })
    : t('exceptions.shipments.invoice', { number });
}

export function ShipmentsPage({ page, props }: { page: PageContext; props: ShipmentsProps }) {
  const { t } = page.lang;
  const groups = GROUPS.map((group) => ({ group, rows: props.rows.filter((row) => row.group === group) })).filter((g) => g.rows.length);
  return (
    <Layout page={page} title={t('exceptions.shipments.title')}>
      <SectionNav page={page} />
      <Notices page={page} notices={props.notices} />
      <p safe>{t('exceptions.shipments.intro')}</p>
      {props.rows.length === 0 ? (
        <p class="notice" role="status" safe>
          {t('exceptions.shipments.none')}
        </p>
      ) : (
        <form id="retry-form" method="post" action="/exceptions/shipments/retry">
          <input type="hidden" name="_csrf" value={page.csrf} />
          <button type="submit" safe>
            {t('exceptions.shipments.retrySelected')}
          </button>
        </form>
      )}
      {groups.map(({ group, rows }) => (
        <section class="card" aria-labelledby={`group-${group}`} data-group={group}>
          <h2 id={`group-${group}`} safe>
            {`${t(`exceptions.shipments.group.${group}`)} (${t('exceptions.shipments.groupCount', { count: rows.length })})`}
          </h2>
          <table>
            <thead>
              <tr>
                <th scope="col" safe>
                  {t('exceptions.shipments.select')}
                </th>
                <th scope="col" safe>
                  {t('exceptions.shipments.document')}
                </th>
                <th scope="col" safe>
                  {t('exceptions.shipments.customer')}
                </th>
                <th scope="col" safe>
                  {t('exceptions.shipments.reason')}
                </th>
                <th scope="col" safe>
                  {t('exceptions.shipments.since')}
                </th>
                <th scope="col" safe>
                  {t('exceptions.shipments.actions')}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <ShipmentRow page={page} row={row} fix={props.fix?.document === row.document ? props.fix : undefined} />
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <Pager page={page} meta={props.meta} path="/exceptions/shipments" query={{}} />
    </Layout>
  );
}

function ShipmentRow({ page, row, fix }: { page: PageContext; row: AttentionRow; fix?: FixState }) {
  const { t, dateTime } = page.lang;
  const label = documentLabel(page, row.shipment.reminderId, row.parties);
  const shipmentId = toPublicId('shp', row.shipment.id);
  return (
    <tr data-shipment={shipmentId}>
      <td>
        <input
          type="checkbox"
          form="retry-form"
          name="document"
          value={row.document}
          id={`pick-${shipmentId}`}
          aria-label={t('exceptions.shipments.selectOne', { document: label })}
        />
      </td>
      <td>
        <a href={`/invoices/${toPublicId('inv', row.shipment.invoiceId)}`} safe>
          {label}
        </a>
      </td>
      <td>
        {row.parties ? (
          <a href={`/customers/${toPublicId('cus', row.parties.customerId)}`} safe>
            {row.parties.customerName}
          </a>
        ) : (
          ''
        )}
      </td>
      <td safe>{row.shipment.attention ?? ''}</td>
      <td safe>{dateTime(row.shipment.createdAt)}</td>
      <td>
        <form method="post" action="/exceptions/shipments/retry" class="inline">
          <input type="hidden" name="_csrf" value={page.csrf} />
          <input type="hidden" name="document" value={row.document} />
          <button type="submit" aria-label={`${t('exceptions.shipments.retry')}: ${label}`} safe>
            {t('exceptions.shipments.retry')}
          </button>
        </form>
        <FixForms page={page} row={row} label={label} fix={fix} />
      </td>
    </tr>
  );
}
