// The invoice page: status and amounts, customer and contact, documents and actions, payments (with the
// form that records one), reminders with their letters, deliveries and the event timeline.
import type { InvoiceEvent } from '../../../invoices/invoice-event.entity.js';
import type { InvoiceView } from '../../../invoices/invoice.serializer.js';
import type { Delivery } from '../../../shipping/shipments/shipment.js';
import { Layout, type PageContext } from '../../views/layout.js';
import type { PageAction } from '../invoice-actions.js';
import type { EditField, ShippingOffers } from '../invoice-operations.js';
import type { InvoiceWire } from '../invoice-page.service.js';
import { EMPTY_FORM, type FormState } from './form-parts.js';
import { ActionsCard, AmountsCard, CustomerCard, DocumentsCard, StatusCard } from './invoice-header.js';
import { DeliveriesCard, RemindersCard, TimelineCard } from './invoice-history.js';
import { PaymentsCard } from './invoice-payments.js';

export interface InvoicePageProps {
  view: InvoiceView;
  wire: InvoiceWire;
  events: InvoiceEvent[];
  deliveries: Delivery[];
  /** E-mail addresses of the users named by the events. */
  users: Map<string, string>;
  actions: PageAction[];
  /** The shipping steps that wait for the user, and whether a statement of claim exists. */
  offers: ShippingOffers;
  /** The fields the edit form may still change (none: no edit link). */
  editable: EditField[];
  /** The flash notice of the change just made, in the user's language. */
  notice?: string;
  /** The payment form as posted, with its errors. */
  payment?: FormState;
}

export function invoiceTitle(page: PageContext, view: InvoiceView): string {
  const { t } = page.lang;
  return t('invoice.title', { number: view.invoice.invoiceNumber ?? t('invoice.noNumber') });
}

export function InvoicePage({ page, props }: { page: PageContext; props: InvoicePageProps }) {
  const { lang } = page;
  const { view, wire } = props;
  const base = `/invoices/${wire.id}`;
  return (
    <Layout page={page} title={invoiceTitle(page, view)}>
      {props.notice ? (
        <p class="notice" role="status" id="notice" safe>
          {props.notice}
        </p>
      ) : (
        ''
      )}
      <div class="grid">
        <StatusCard lang={lang} view={view} />
        <AmountsCard lang={lang} view={view} wire={wire} />
        <CustomerCard lang={lang} view={view} />
      </div>
      <div class="grid">
        <DocumentsCard lang={lang} view={view} base={base} offers={props.offers} />
        <ActionsCard lang={lang} actions={props.actions} base={base} offers={props.offers} canEdit={props.editable.length > 0} />
      </div>
      <PaymentsCard lang={lang} csrf={page.csrf} view={view} base={base} form={props.payment ?? EMPTY_FORM} />
      <RemindersCard lang={lang} view={view} base={base} offers={props.offers} />
      <DeliveriesCard lang={lang} deliveries={props.deliveries} />
      <TimelineCard lang={lang} events={props.events} users={props.users} />
    </Layout>
  );
}
