// Deciding to ship: release and autosend of an invoice, and a reminder of the dunning engine. The
// decision — mode, channels, recipients — is taken in the caller's transaction and the delivery jobs
// are enqueued in it; the worker (DeliveryService) sends and marks the document sent. Also the reads
// (deliveries, letters) and the client's confirmation of a letter it shipped itself. Recording a
// decision is ShipmentDecisions'.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CompanyContext } from '../../auth/principal.js';
import { AppError } from '../../common/errors.js';
import { parsePublicId, toPublicId } from '../../common/ids.js';
import type { PageRequest } from '../../common/pagination.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import { nextStatus } from '../../invoices/invoice-status.js';
import { type Actor, InvoicesRepository } from '../../invoices/invoices.repository.js';
import type { Reminder } from '../../invoices/reminder.entity.js';
import { recipientLines } from '../letters/letter-content.js';
import { routeOf, sendTimeRefusal } from '../routing/route.js';
import { type Delivery, newDelivery, OPEN_STATUSES, type Shipment } from './shipment.js';
import { ShipmentDecisions } from './shipment-decisions.js';
import { ShipmentOutcomes } from './shipment-outcomes.js';
import { ShippingContexts } from './shipping-context.js';
import { type RenderedLetter, ShippingLetters } from '../letters/shipping-letters.js';
import { type AttentionFilter, ShipmentsRepository } from './shipments.repository.js';

const SKIPPED = 'shipping mode skip_shipping: the client ships it';

export interface ShipInvoiceOptions {
  reason: string | null;
  /** refuse: a 422 when the invoice cannot go out (API release); flag: record it for attention (autosend). */
  unroutable: 'refuse' | 'flag';
}

@Injectable()
export class ShippingService {
  constructor(
    private readonly shipments: ShipmentsRepository,
    private readonly invoices: InvoicesRepository,
    private readonly contexts: ShippingContexts,
    private readonly letters: ShippingLetters,
    private readonly outcomes: ShipmentOutcomes,
    private readonly decisions: ShipmentDecisions,
  ) {}

  /**
   * Ships a draft (the caller holds its row lock): skip_shipping makes it `sent` at once; e-mail and
   * post are enqueued and the worker makes it `sent` once they succeeded; manual shipping waits for the
   * client's confirmation. Returns the invoice as it is after the decision.
   */
  async shipInvoice(manager: EntityManager, invoice: Invoice, actor: Actor, options: ShipInvoiceOptions): Promise<Invoice> {
    nextStatus('release', invoice.status, invoice.statusBeforePaid); // a 409 for anything but a draft
    await this.assertNoneUnderWay(manager, invoice, null);
    const ctx = await this.contexts.load(manager, invoice, null);
    const route = routeOf(this.contexts.resolve(ctx), ctx.contact, ctx.customerContacts);
    if (route.blocked && options.unroutable === 'refuse') {
      throw new AppError('shipping.not_routable', `The invoice cannot be shipped: ${route.blocked.message}`, [route.blocked]);
    }
    const shipment = await this.decisions.record(manager, ctx, route, actor, options.reason);
    if (shipment.status !== 'skipped') return invoice;
    await this.outcomes.shipped(manager, shipment, invoice, options.reason ?? SKIPPED, 'skipped');
    return (await this.invoices.findById(invoice.companyId, invoice.id, manager)) as Invoice;
  }

  /**
   * For the dunning engine, inside its transaction: ships a created reminder the way its mode says.
   * Idempotent: a reminder already under way or shipped returns that shipment. Never throws for a
   * reminder that cannot go out — it is flagged. When shipping succeeds the worker sets last_sent_at and
   * applies send_reminderN, if the invoice still waits for this reminder and is still unpaid.
   */
  async shipReminder(manager: EntityManager, companyId: string, reminderId: string, actor: Actor): Promise<Shipment> {
    const reminder = await this.shipments.lockReminder(companyId, reminderId, manager);
    if (!reminder) throw new AppError('reminder.not_found', `Reminder ${toPublicId('rem', reminderId)} was not found`);
    const latest = await this.shipments.latestShipment(companyId, reminder.invoiceId, reminder.id, manager);
    if (latest && (OPEN_STATUSES.includes(latest.status) || latest.status === 'shipped' || latest.status === 'skipped')) return latest;
    const invoice = await this.invoices.lockById(companyId, reminder.invoiceId, manager);
    if (!invoice) throw new Error(`reminder ${reminderId} lost its invoice`);
    return this.startReminder(manager, invoice, reminder, actor, 'flag');
  }

  /**
   * A user ships an issued reminder again — one whose shipment failed, was flagged or cancelled — once
   * the cause is fixed. Unlike the dunning engine's call, a reminder that cannot go out is refused with
   * the reason (422, 409) and nothing is recorded.
   */
  async shipReminderAgain(company: CompanyContext, invoicePublicId: string, reminderPublicId: string, actor: Actor): Promise<Invoice> {
    return this.shipments.transaction(async (manager) => {
      const invoice = await this.requireInvoice(company, invoicePublicId, manager, true);
      const found = await this.requireReminder(company, invoice, reminderPublicId, manager);
      const reminder = (await this.shipments.lockReminder(company.id, found.id, manager)) as Reminder;
      if (!reminder.dispatchedAt)
        throw new AppError('shipping.not_shippable', 'The reminder has not been issued yet: the dunning run ships it when it issues it');
      await this.assertNoneUnderWay(manager, invoice, reminder);
      const latest = await this.shipments.latestShipment(company.id, invoice.id, reminder.id, manager);
      if (latest && (latest.status === 'shipped' || latest.status === 'skipped')) {
        throw new AppError('shipping.not_shippable', 'The reminder went out already', [], {
          shipment_id: toPublicId('shp', latest.id),
          shipment_status: latest.status,
        });
      }
      const refusal = sendTimeRefusal(invoice, reminder);
      if (refusal)
        throw new AppError('shipping.not_shippable', `The reminder cannot be shipped: ${refusal}`, [], { current_status: invoice.status });
      await this.startReminder(manager, invoice, reminder, actor, 'refuse');
      return (await this.invoices.findById(company.id, invoice.id, manager)) as Invoice;
    });
  }

  /** Decides how a reminder goes out and enqueues it; skip_shipping counts it as sent at once. */
  private async startReminder(
    manager: EntityManager,
    invoice: Invoice,
    reminder: Reminder,
    actor: Actor,
    unroutable: ShipInvoiceOptions['unroutable'],
  ): Promise<Shipment> {
    const ctx = await this.contexts.load(manager, invoice, reminder);
    const route = routeOf(this.contexts.resolve(ctx), ctx.contact, ctx.customerContacts);
    if (route.blocked && unroutable === 'refuse') {
      throw new AppError('shipping.not_routable', `The reminder cannot be shipped: ${route.blocked.message}`, [route.blocked]);
    }
    if (route.resolution.mode !== 'unknown') await this.shipments.setReminderMode(reminder, route.resolution.mode, manager);
    const shipment = await this.decisions.record(manager, ctx, route, actor, `reminder ${reminder.reminderStage}`);
    if (shipment.status !== 'skipped') return shipment;
    const refusal = sendTimeRefusal(invoice, reminder);
    if (!refusal) return this.outcomes.shipped(manager, shipment, invoice, SKIPPED, 'skipped');
    const cancelled = await this.shipments.updateShipment(shipment, { status: 'cancelled' }, manager);
    await this.invoices.addEvent(
      invoice,
      actor,
      {
        kind: 'shipping_cancelled',
        reason: refusal,
        details: { shipment_id: toPublicId('shp', shipment.id), reminder_id: toPublicId('rem', reminder.id) },
      },
      manager,
    );
    return cancelled;
  }

  /** The client printed and posted a manual_shipping letter itself: the document counts as sent now. */
  async confirm(company: CompanyContext, invoicePublicId: string, reminderPublicId: string | null, actor: Actor): Promise<Invoice> {
    return this.shipments.transaction(async (manager) => {
      const invoice = await this.requireInvoice(company, invoicePublicId, manager, true);
      const reminder = reminderPublicId === null ? null : await this.requireReminder(company, invoice, reminderPublicId, manager);
      const latest = await this.shipments.latestShipment(company.id, invoice.id, reminder?.id ?? null, manager);
      const shipment = latest && (await this.shipments.lockShipment(company.id, latest.id, manager));
      if (!shipment || shipment.status !== 'awaiting_confirmation') {
        throw new AppError(
          'shipping.nothing_to_confirm',
          'Nothing waits for a shipping confirmation: only a manual_shipping letter does, after release',
          [],
          {
            shipment_status: shipment?.status ?? null,
          },
        );
      }
      const refusal = sendTimeRefusal(invoice, reminder);
      if (refusal)
        throw new AppError('invoice.transition_not_allowed', `The shipment cannot be confirmed: ${refusal}`, [], {
          current_status: invoice.status,
        });
      const ctx = await this.contexts.load(manager, invoice, reminder);
      const { shipment: withLetter } = await this.letters.ofShipment(manager, shipment, ctx);
      const recipient = recipientLines(ctx.customer, ctx.settings.senderCountryCode).join(', ');
      await this.shipments.insertDelivery(
        newDelivery(withLetter, 'manual', 1, 'delivered', { recipient, provider: 'client', providerId: actor.id }),
        manager,
      );
      await this.outcomes.shipped(manager, withLetter, invoice, 'shipped by the client (manual shipping), confirmed');
      return (await this.invoices.findById(company.id, invoice.id, manager)) as Invoice;
    });
  }

  async deliveries(company: CompanyContext, invoicePublicId: string): Promise<{ shipments: Shipment[]; deliveries: Delivery[] }> {
    const invoice = await this.requireInvoice(company, invoicePublicId);
    const [shipments, deliveries] = await Promise.all([
      this.shipments.shipmentsOf(company.id, invoice.id),
      this.shipments.deliveriesOf(company.id, invoice.id),
    ]);
    return { shipments, deliveries };
  }

  needingAttention(company: CompanyContext, filter: AttentionFilter, page: PageRequest) {
    return this.shipments.needingAttention(company.id, filter, page);
  }

  /**
   * The letter of an invoice or reminder: as it went out when a shipment rendered it, else rendered now
   * from the current data (a preview, not stored) — except for a manual_shipping letter waiting for
   * confirmation, which is stored on first download so that the printed letter stays on record.
   */
  async letter(company: CompanyContext, invoicePublicId: string, reminderPublicId: string | null): Promise<RenderedLetter> {
    return this.shipments.transaction(async (manager) => {
      const invoice = await this.requireInvoice(company, invoicePublicId, manager);
      const reminder = reminderPublicId === null ? null : await this.requireReminder(company, invoice, reminderPublicId, manager);
      const latest = await this.shipments.latestShipment(company.id, invoice.id, reminder?.id ?? null, manager);
      const ctx = await this.contexts.load(manager, invoice, reminder);
      if (latest?.letterKey || latest?.status === 'awaiting_confirmation') {
        const shipment = (await this.shipments.lockShipment(company.id, latest.id, manager)) as Shipment;
        return this.letters.ofShipment(manager, shipment, ctx);
      }
      return this.letters.render(ctx);
    });
  }

  private async assertNoneUnderWay(manager: EntityManager, invoice: Invoice, reminder: Reminder | null): Promise<void> {
    const latest = await this.shipments.latestShipment(invoice.companyId, invoice.id, reminder?.id ?? null, manager);
    if (latest && OPEN_STATUSES.includes(latest.status)) {
      throw new AppError(
        'shipping.in_progress',
        `The ${reminder ? 'reminder' : 'invoice'} is being shipped already (shipment ${toPublicId('shp', latest.id)}, ${latest.status})`,
        [],
        {
          shipment_id: toPublicId('shp', latest.id),
          shipment_status: latest.status,
        },
      );
    }
  }

  private async requireInvoice(company: CompanyContext, publicId: string, manager?: EntityManager, lock = false): Promise<Invoice> {
    const id = parsePublicId('inv', publicId);
    const invoice = !id
      ? null
      : lock && manager
        ? await this.invoices.lockById(company.id, id, manager)
        : await this.invoices.findById(company.id, id, manager);
    if (!invoice) throw new AppError('invoice.not_found', `Invoice ${publicId} was not found`);
    return invoice;
  }

  private async requireReminder(company: CompanyContext, invoice: Invoice, publicId: string, manager: EntityManager): Promise<Reminder> {
    const id = parsePublicId('rem', publicId);
    const reminder = id ? await this.shipments.findReminder(company.id, invoice.id, id, manager) : null;
    if (!reminder) throw new AppError('reminder.not_found', `Reminder ${publicId} was not found`);
    return reminder;
  }
}
