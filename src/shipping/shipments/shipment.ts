// A shipment is one decision to send a document (an invoice, or a reminder of it) the way its mode
// says; a delivery is one attempt on one channel. Rows of the tables `shipments` and `deliveries`.
import type { Channel } from '../routing/shipping-mode.js';
import { newUuid } from '../../common/ids.js';
import type { ActorType } from '../../invoices/invoice-event.entity.js';
import type { ModeSource, ShippingMode } from '../routing/shipping-mode.js';

export type ShipmentStatus = 'pending' | 'awaiting_confirmation' | 'shipped' | 'failed' | 'cancelled' | 'needs_attention' | 'skipped';
export type ChannelStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';
export type DeliveryChannel = 'email' | 'post' | 'manual';
export type DeliveryOutcome = 'delivered' | 'temporary_failure' | 'permanent_failure' | 'cancelled';

export interface Shipment {
  companyId: string;
  id: string;
  invoiceId: string;
  reminderId: string | null;
  document: 'invoice' | 'reminder';
  shippingMode: ShippingMode;
  modeSource: ModeSource | null;
  status: ShipmentStatus;
  emailStatus: ChannelStatus | null;
  postStatus: ChannelStatus | null;
  attention: string | null;
  messageId: string | null;
  letterKey: string | null;
  /** The company's day whose print batch the letter goes into, fixed at the first post attempt (YYYY-MM-DD). */
  printDay: string | null;
  actorType: ActorType;
  actorId: string | null;
  reason: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export interface Delivery {
  companyId: string;
  id: string;
  shipmentId: string;
  invoiceId: string;
  reminderId: string | null;
  channel: DeliveryChannel;
  attempt: number;
  recipient: string | null;
  outcome: DeliveryOutcome;
  provider: string | null;
  providerId: string | null;
  messageId: string | null;
  error: string | null;
  createdAt: Date;
}

export const OPEN_STATUSES: readonly ShipmentStatus[] = ['pending', 'awaiting_confirmation'];

/** A delivery row for an attempt on a channel of the shipment. */
export function newDelivery(shipment: Shipment, channel: DeliveryChannel, attempt: number, outcome: DeliveryOutcome, fields: Partial<Delivery> = {}): Delivery {
  return {
    companyId: shipment.companyId,
    id: newUuid(),
    shipmentId: shipment.id,
    invoiceId: shipment.invoiceId,
    reminderId: shipment.reminderId,
    channel,
    attempt,
    recipient: null,
    outcome,
    provider: null,
    providerId: null,
    messageId: null,
    error: null,
    createdAt: new Date(),
    ...fields,
  };
}

/** A channel whose delivery stalled (its worker died mid-attempt), as the sweeper finds it. */
export interface StalledChannel {
  companyId: string;
  shipmentId: string;
  channel: Channel;
  lastError: string | null;
}
