// What a shipment achieved, once each of its channels has ended: the invoice becomes sent (release) or
// the reminder sent (send_reminderN, last_sent_at) through the one transition function — if its status
// still allows it —, or the failure is flagged. Every outcome is an invoice event.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { toPublicId } from '../../common/ids.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import { canApply, type InvoiceAction } from '../../invoices/invoice-status.js';
import { InvoiceTransitions } from '../../invoices/ledger/invoice-transitions.js';
import { type Actor, InvoicesRepository } from '../../invoices/invoices.repository.js';
import type { ChannelStatus, Shipment } from './shipment.js';
import type { Channel } from '../routing/shipping-mode.js';
import { ShipmentsRepository } from './shipments.repository.js';

const LABEL: Record<Channel, string> = { email: 'e-mail', post: 'post' };

@Injectable()
export class ShipmentOutcomes {
  constructor(
    private readonly shipments: ShipmentsRepository,
    private readonly invoices: InvoicesRepository,
    private readonly transitions: InvoiceTransitions,
  ) {}

  /** Records how a channel ended (the shipment is locked by the caller); settles the shipment when it was the last. */
  async channelEnded(manager: EntityManager, shipment: Shipment, channel: Channel, status: ChannelStatus, note: string | null): Promise<Shipment> {
    const changes: Partial<Shipment> = channel === 'email' ? { emailStatus: status } : { postStatus: status };
    if (note && status !== 'cancelled') changes.attention = [shipment.attention, note].filter(Boolean).join('; ');
    const updated = await this.shipments.updateShipment(shipment, changes, manager);
    const statuses = channelStatuses(updated);
    if (updated.status !== 'pending' || statuses.includes('pending')) return updated;
    const invoice = await this.lockInvoice(manager, updated);
    if (statuses.includes('delivered')) {
      const by = (Object.keys(LABEL) as Channel[]).filter((c) => channelStatus(updated, c) === 'delivered').map((c) => LABEL[c]);
      return this.shipped(manager, updated, invoice, `shipped by ${by.join(' and ')}`);
    }
    const failed = statuses.includes('failed');
    const settled = await this.shipments.updateShipment(updated, { status: failed ? 'failed' : 'cancelled', completedAt: new Date(), ...(failed && !updated.attention && { attention: 'nothing was delivered' }) }, manager);
    await this.invoices.addEvent(invoice, actorOf(settled), {
      kind: failed ? 'shipping_failed' : 'shipping_cancelled',
      reason: failed ? settled.attention : note,
      details: detailsOf(settled),
    }, manager);
    return settled;
  }

  /** The document is out: the invoice (or its reminder) is marked sent if its status still allows it. */
  async shipped(manager: EntityManager, shipment: Shipment, invoice: Invoice, summary: string, status: 'shipped' | 'skipped' = 'shipped'): Promise<Shipment> {
    const now = new Date();
    const updated = await this.shipments.updateShipment(shipment, { status, completedAt: now }, manager);
    const actor = actorOf(updated);
    const details = detailsOf(updated);
    let action: InvoiceAction = 'release';
    if (updated.reminderId) {
      const reminder = await this.shipments.lockReminder(updated.companyId, updated.reminderId, manager);
      if (reminder) await this.shipments.markReminderShipped(reminder, now, manager);
      action = `send_reminder${reminder?.reminderStage ?? 1}` as InvoiceAction;
    }
    if (canApply(action, invoice.status)) await this.transitions.apply(manager, invoice, action, actor, summary, details);
    else await this.invoices.addEvent(invoice, actor, { kind: 'shipped', reason: `${summary}; status ${invoice.status} left as it is`, details }, manager);
    if (updated.attention) await this.invoices.addEvent(invoice, actor, { kind: 'shipping_attention', reason: updated.attention, details }, manager);
    return updated;
  }

  async lockInvoice(manager: EntityManager, shipment: Shipment): Promise<Invoice> {
    const invoice = await this.invoices.lockById(shipment.companyId, shipment.invoiceId, manager);
    if (!invoice) throw new Error(`shipment ${shipment.id} lost its invoice`);
    return invoice;
  }
}

export function channelStatus(shipment: Shipment, channel: Channel): ChannelStatus | null {
  return channel === 'email' ? shipment.emailStatus : shipment.postStatus;
}

function channelStatuses(shipment: Shipment): ChannelStatus[] {
  return [shipment.emailStatus, shipment.postStatus].filter((s): s is ChannelStatus => s !== null);
}

function detailsOf(shipment: Shipment) {
  return { shipment_id: toPublicId('shp', shipment.id), reminder_id: shipment.reminderId && toPublicId('rem', shipment.reminderId) };
}

export function actorOf(shipment: Shipment): Actor {
  return { type: shipment.actorType, id: shipment.actorId };
}
