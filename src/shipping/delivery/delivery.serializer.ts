// The wire JSON of a delivery: one attempt on one channel (GET /api/v1/invoices/<id>/deliveries).
import type { SerializeContext } from '../../customers/customer.serializer.js';
import { formatDateTime } from '../../common/dates.js';
import { toPublicId } from '../../common/ids.js';
import type { Delivery } from '../shipments/shipment.js';

export function serializeDelivery(d: Delivery, ctx: SerializeContext) {
  return {
    id: toPublicId('dlv', d.id),
    shipment_id: toPublicId('shp', d.shipmentId),
    reminder_id: d.reminderId && toPublicId('rem', d.reminderId),
    channel: d.channel,
    attempt: d.attempt,
    recipient: d.recipient,
    outcome: d.outcome,
    provider: d.provider,
    provider_id: d.providerId,
    message_id: d.messageId,
    error: d.error,
    created_at: formatDateTime(d.createdAt, ctx.timeZone),
  };
}
