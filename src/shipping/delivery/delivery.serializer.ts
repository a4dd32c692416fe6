// The wire JSON of a delivery, with its schema: one attempt on one channel (GET /api/v1/invoices/<id>/deliveries).
import type { SerializeContext } from '../../customers/customer.serializer.js';
import { formatDateTime } from '../../common/dates.js';
import { toPublicId } from '../../common/ids.js';
import { dateTimeProperty, enumProperty, idProperty, integerProperty, textProperty } from '../../openapi/properties.js';
import { arrayOf, component, type Wire } from '../../openapi/schema.js';
import type { Delivery, DeliveryChannel, DeliveryOutcome } from '../shipments/shipment.js';
import { ShipmentSchema } from '../shipments/shipment.serializer.js';

const CHANNELS = ['email', 'post', 'manual'] as const satisfies readonly DeliveryChannel[];
const OUTCOMES = ['delivered', 'temporary_failure', 'permanent_failure', 'cancelled'] as const satisfies readonly DeliveryOutcome[];

export const DeliverySchema = component('Delivery', {
  id: idProperty('dlv', 'Service id of the delivery'),
  shipment_id: idProperty('shp', 'The shipment the attempt belongs to'),
  reminder_id: { ...idProperty('rem', 'The reminder; null for the invoice itself'), nullable: true },
  channel: enumProperty(CHANNELS),
  attempt: integerProperty({ minimum: 1 }),
  recipient: textProperty({ nullable: true, description: 'The e-mail address, or the postal address' }),
  outcome: enumProperty(OUTCOMES),
  provider: textProperty({ nullable: true }),
  provider_id: textProperty({ nullable: true, description: 'The provider’s id of the letter or message' }),
  message_id: textProperty({ nullable: true, description: 'The Message-ID of the e-mail' }),
  error: textProperty({ nullable: true }),
  created_at: dateTimeProperty(),
});

export const InvoiceDeliveriesSchema = component('InvoiceDeliveries', {
  deliveries: arrayOf(DeliverySchema, { description: 'Every attempt, oldest first' }),
  shipments: arrayOf(ShipmentSchema, { description: 'Every shipment of the invoice and its reminders' }),
});

export function serializeDelivery(d: Delivery, ctx: SerializeContext): Wire<typeof DeliverySchema> {
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
