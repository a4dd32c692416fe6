// A shipping decision recorded: the shipment row with its status and channels, its delivery jobs in the
// caller's transaction, and the invoice event that says what happens next (or why nothing can).
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { newUuid, toPublicId } from '../../common/ids.js';
import { type Actor, InvoicesRepository } from '../../invoices/invoices.repository.js';
import { DeliveryQueue } from '../delivery/delivery-queue.js';
import type { Route } from '../routing/route.js';
import type { Shipment, ShipmentStatus } from './shipment.js';
import type { ShippingContext } from './shipping-context.js';
import { ShipmentsRepository } from './shipments.repository.js';

@Injectable()
export class ShipmentDecisions {
  constructor(
    private readonly shipments: ShipmentsRepository,
    private readonly invoices: InvoicesRepository,
    private readonly queue: DeliveryQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Records the decision and enqueues its deliveries; flags what cannot go out. */
  async record(manager: EntityManager, ctx: ShippingContext, route: Route, actor: Actor, reason: string | null): Promise<Shipment> {
    const mode = route.resolution.mode;
    const status: ShipmentStatus = route.blocked
      ? 'needs_attention'
      : mode === 'skip_shipping'
        ? 'skipped'
        : mode === 'manual_shipping'
          ? 'awaiting_confirmation'
          : 'pending';
    const id = newUuid();
    const now = new Date();
    const emailPlanned = mode === 'email' || mode === 'dual_shipping';
    const shipment = await this.shipments.insertShipment(
      {
        companyId: ctx.invoice.companyId,
        id,
        invoiceId: ctx.invoice.id,
        reminderId: ctx.reminder?.id ?? null,
        document: ctx.reminder ? 'reminder' : 'invoice',
        shippingMode: mode,
        modeSource: route.resolution.source,
        status,
        emailStatus: status !== 'pending' || !emailPlanned ? null : route.channels.includes('email') ? 'pending' : 'failed',
        postStatus: status === 'pending' && route.channels.includes('post') ? 'pending' : null,
        attention: route.blocked?.message ?? route.warning,
        messageId: route.channels.includes('email') ? `<${id}@${this.config.mail.messageIdDomain}>` : null,
        letterKey: null,
        printDay: null,
        actorType: actor.type,
        actorId: actor.id,
        reason,
        createdAt: now,
        updatedAt: now,
        completedAt: status === 'needs_attention' || status === 'skipped' ? now : null,
      },
      manager,
    );
    if (status === 'pending') await this.queue.enqueue(manager, shipment, route.channels);
    // A warning (dual shipping without an address) is in the details here; the outcome's event repeats it.
    const details = {
      shipment_id: toPublicId('shp', id),
      reminder_id: shipment.reminderId && toPublicId('rem', shipment.reminderId),
      shipping_mode: mode,
      mode_source: route.resolution.source,
      channels: route.channels,
      ...(route.warning && { warning: route.warning }),
    };
    const event =
      status === 'needs_attention'
        ? 'shipping_attention'
        : status === 'awaiting_confirmation'
          ? 'shipping_awaiting_confirmation'
          : status === 'pending'
            ? 'shipping_started'
            : null;
    if (event)
      await this.invoices.addEvent(ctx.invoice, actor, { kind: event, reason: route.blocked?.message ?? reason, details }, manager);
    return shipment;
  }
}
