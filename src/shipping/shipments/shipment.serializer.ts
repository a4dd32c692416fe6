// The wire JSON of a shipment, with its schema: one decision to send a document, its channels and what came of it.
import type { SerializeContext } from '../../customers/customer.serializer.js';
import { formatDateTime } from '../../common/dates.js';
import { toPublicId } from '../../common/ids.js';
import { INVOICE_SHIPPING_MODES } from '../../invoices/invoice.entity.js';
import { PageMetaSchema } from '../../openapi/pagination.schema.js';
import { dateTimeProperty, enumProperty, idProperty, textProperty } from '../../openapi/properties.js';
import { arrayOf, component, type Wire } from '../../openapi/schema.js';
import type { ModeSource } from '../routing/shipping-mode.js';
import type { ChannelStatus, Shipment, ShipmentStatus } from './shipment.js';

export const SHIPMENT_STATUSES = [
  'pending',
  'awaiting_confirmation',
  'shipped',
  'failed',
  'cancelled',
  'needs_attention',
  'skipped',
] as const satisfies readonly ShipmentStatus[];
const CHANNEL_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const satisfies readonly ChannelStatus[];
const MODE_SOURCES = ['reminder', 'invoice', 'customer', 'company'] as const satisfies readonly ModeSource[];

export const ShipmentSchema = component('Shipment', {
  id: idProperty('shp', 'Service id of the shipment'),
  invoice_id: idProperty('inv', 'The invoice'),
  reminder_id: { ...idProperty('rem', 'The reminder; null for the invoice itself'), nullable: true },
  document: enumProperty(['invoice', 'reminder']),
  shipping_mode: enumProperty(INVOICE_SHIPPING_MODES),
  mode_source: enumProperty(MODE_SOURCES, { nullable: true, description: 'Where the shipping mode came from' }),
  status: enumProperty(SHIPMENT_STATUSES),
  channels: component('ShipmentChannels', {
    email: enumProperty(CHANNEL_STATUSES, { nullable: true, description: 'null: not sent by e-mail' }),
    post: enumProperty(CHANNEL_STATUSES, { nullable: true, description: 'null: not sent by post' }),
  }),
  attention: textProperty({ nullable: true, description: 'Why the shipment needs someone' }),
  message_id: textProperty({ nullable: true, description: 'The Message-ID of the e-mail' }),
  letter_url: { type: 'string', format: 'uri', nullable: true, description: 'The postal letter (PDF), once there is one' },
  created_at: dateTimeProperty(),
  completed_at: dateTimeProperty({ nullable: true }),
});

export const ShipmentAttentionListSchema = component('ShipmentAttentionList', { shipments: arrayOf(ShipmentSchema), meta: PageMetaSchema });

export function serializeShipment(s: Shipment, ctx: SerializeContext): Wire<typeof ShipmentSchema> {
  const invoiceId = toPublicId('inv', s.invoiceId);
  const reminderId = s.reminderId && toPublicId('rem', s.reminderId);
  const letterPath = reminderId ? `${invoiceId}/reminders/${reminderId}/letter` : `${invoiceId}/letter`;
  return {
    id: toPublicId('shp', s.id),
    invoice_id: invoiceId,
    reminder_id: reminderId,
    document: s.document,
    shipping_mode: s.shippingMode,
    mode_source: s.modeSource,
    status: s.status,
    channels: { email: s.emailStatus, post: s.postStatus },
    attention: s.attention,
    message_id: s.messageId,
    letter_url: s.letterKey || s.status === 'awaiting_confirmation' ? `${ctx.publicUrl}/api/v1/invoices/${letterPath}` : null,
    created_at: formatDateTime(s.createdAt, ctx.timeZone),
    completed_at: formatDateTime(s.completedAt, ctx.timeZone),
  };
}
