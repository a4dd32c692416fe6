// The wire JSON of a shipment: one decision to send a document, its channels and what came of it.
import type { SerializeContext } from '../../customers/customer.serializer.js';
import { formatDateTime } from '../../common/dates.js';
import { toPublicId } from '../../common/ids.js';
import type { Shipment } from './shipment.js';

export function serializeShipment(s: Shipment, ctx: SerializeContext) {
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
