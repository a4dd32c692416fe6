// One delivery job: check at send time that the document may still go out, send it on its channel,
// record the attempt, and settle the shipment when its last channel has ended.
//
// Delivery guarantee: AT LEAST ONCE. The job is committed in the transaction that decided to ship, so
// a decision is never lost. The send happens outside any transaction and its outcome is recorded after
// it; a crash (or a lost database connection) between the two leaves the job to be retried — after
// its expiry if the process died — and the message goes out a second time. Every attempt of an e-mail
// carries the same Message-ID (chosen with the shipment), so mail servers and clients that deduplicate
// by Message-ID show it once; the print batch deduplicates letters by the shipment id itself. A channel
// that has recorded its delivery is never sent again, whatever the queue redelivers.
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { todayIn } from '../../common/calendar-date.js';
import { MailError } from '../../mail/mail-errors.js';
import { type MailReceipt, MailSender, type OutgoingMail } from '../../mail/mail-sender.js';
import type { DeliveryJob } from './delivery-queue.js';
import { invoiceMail, reminderMail } from '../letters/mail-content.js';
import { invoiceNumberOf, recipientLines, reminderTitle, senderOf } from '../letters/letter-content.js';
import { type PostalLetter, PostalError, PostalProvider, type PostalReceipt } from '../postal/postal-provider.js';
import { emailRecipients } from '../routing/recipients.js';
import { sendTimeRefusal } from '../routing/route.js';
import { type DeliveryOutcome, newDelivery, type Shipment } from '../shipments/shipment.js';
import { channelStatus, ShipmentOutcomes } from '../shipments/shipment-outcomes.js';
import { ShippingContexts } from '../shipments/shipping-context.js';
import { ShippingLetters } from '../letters/shipping-letters.js';
import type { Channel } from '../routing/shipping-mode.js';
import { ShipmentsRepository } from '../shipments/shipments.repository.js';

interface Prepared {
  shipment: Shipment;
  channel: Channel;
  attempt: number;
  recipient: string;
  /** null: nobody to write to any more (the contact lost its address since the decision). */
  mail?: OutgoingMail | null;
  letter?: PostalLetter;
}

interface Sent {
  provider: string;
  providerId: string;
  messageId: string | null;
  rejected: string[];
}

/** pg-boss counts retries from 0; the attempt with retryCount = retryLimit is the last one. */
export interface AttemptInfo {
  retryCount: number;
  retryLimit: number;
}

@Injectable()
export class DeliveryService {
  private readonly logger = new Logger(DeliveryService.name);

  constructor(
    private readonly shipments: ShipmentsRepository,
    private readonly contexts: ShippingContexts,
    private readonly letters: ShippingLetters,
    private readonly outcomes: ShipmentOutcomes,
    private readonly mail: MailSender,
    private readonly postal: PostalProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Throws on a temporary failure, so that the queue retries (and finally dead-letters) the job. */
  async deliver(job: DeliveryJob, channel: Channel, info: AttemptInfo): Promise<void> {
    const final = info.retryCount >= info.retryLimit;
    let prepared: Prepared | null;
    try {
      prepared = await this.shipments.transaction((manager) => this.prepare(manager, job, channel, info));
    } catch (error) {
      // The store is down, the letter cannot be rendered, the database is away: an attempt all the same.
      await this.recordUnprepared(job, channel, info, `could not prepare the ${LABEL[channel]}: ${messageOf(error)}`);
      throw error;
    }
    if (!prepared) return;
    let sent: Sent;
    try {
      sent = channel === 'email' ? fromMail(await this.sendMail(prepared)) : fromPost(await this.postal.submit(prepared.letter as PostalLetter));
    } catch (error) {
      const permanent = (error instanceof MailError || error instanceof PostalError) && error.permanent;
      const message = messageOf(error);
      this.logger.warn({ shipment: prepared.shipment.id, channel, attempt: prepared.attempt, permanent, final: permanent || final, error: message }, 'delivery attempt failed');
      await this.record(prepared, permanent ? 'permanent_failure' : 'temporary_failure', null, message, permanent || final);
      if (!permanent) throw error;
      return;
    }
    await this.record(prepared, 'delivered', sent, sent.rejected.length ? `not accepted for ${sent.rejected.join(', ')}` : null, true);
  }

  /**
   * Records an attempt that failed before anything was sent; on the last attempt the channel ends as
   * failed and the shipment is flagged. Should even this fail, the sweep of stalled deliveries settles it.
   */
  private async recordUnprepared(job: DeliveryJob, channel: Channel, info: AttemptInfo, message: string): Promise<void> {
    const final = info.retryCount >= info.retryLimit;
    this.logger.warn({ shipment: job.shipmentId, channel, final, error: message }, 'delivery attempt failed before sending');
    try {
      await this.shipments.transaction(async (manager) => {
        const shipment = await this.shipments.lockShipment(job.companyId, job.shipmentId, manager);
        if (!shipment || shipment.status !== 'pending' || channelStatus(shipment, channel) !== 'pending') return;
        const attempt = await this.attemptNumber(manager, shipment, channel, info);
        await this.shipments.insertDelivery(newDelivery(shipment, channel, attempt, 'temporary_failure', { provider: this.providerOf(channel), error: message }), manager);
        if (final) await this.outcomes.channelEnded(manager, shipment, channel, 'failed', failureNote(channel, attempt, message));
      });
    } catch (error) {
      this.logger.error({ err: error, shipment: job.shipmentId, channel }, 'could not record a failed delivery attempt');
    }
  }

  /** Locks the shipment, re-checks the document and builds what goes out; null when there is nothing (more) to do. */
  private async prepare(manager: EntityManager, job: DeliveryJob, channel: Channel, info: AttemptInfo): Promise<Prepared | null> {
    let shipment = await this.shipments.lockShipment(job.companyId, job.shipmentId, manager);
    if (!shipment || shipment.status !== 'pending' || channelStatus(shipment, channel) !== 'pending') return null;
    const invoice = await this.outcomes.lockInvoice(manager, shipment);
    const reminder = shipment.reminderId ? await this.shipments.lockReminder(shipment.companyId, shipment.reminderId, manager) : null;
    const attempt = await this.attemptNumber(manager, shipment, channel, info);
    const refusal = sendTimeRefusal(invoice, reminder);
    if (refusal) {
      await this.shipments.insertDelivery(newDelivery(shipment, channel, attempt, 'cancelled', { error: refusal }), manager);
      await this.outcomes.channelEnded(manager, shipment, channel, 'cancelled', refusal);
      return null;
    }
    const ctx = await this.contexts.load(manager, invoice, reminder);
    let letter: Awaited<ReturnType<ShippingLetters['ofShipment']>> | null = null;
    if (channel === 'post' || reminder) {
      letter = await this.letters.ofShipment(manager, shipment, ctx);
      shipment = letter.shipment;
    }
    if (channel === 'post') {
      const recipient = recipientLines(ctx.customer, ctx.settings.senderCountryCode);
      const description = reminder ? `${reminderTitle(ctx.settings, reminder)} ${invoiceNumberOf(invoice)}` : `Rechnung ${invoiceNumberOf(invoice)}`;
      // The batch day is fixed at the first attempt (committed with this transaction, before the letter is
      // handed over): a retry after midnight finds the letter in that day's batch instead of printing it again.
      if (!shipment.printDay) shipment = await this.shipments.updateShipment(shipment, { printDay: todayIn(ctx.company.timeZone) }, manager);
      const day = shipment.printDay as string;
      const postal: PostalLetter = { reference: shipment.id, companyId: shipment.companyId, day, description, recipient, pdf: letter!.pdf, pages: letter!.pages };
      return { shipment, channel, attempt, recipient: recipient.join(', '), letter: postal };
    }
    const recipients = emailRecipients(ctx.contact, ctx.customerContacts);
    if (!recipients) return { shipment, channel, attempt, recipient: '', mail: null };
    const text = reminder ? reminderMail(ctx, recipients.salutation, reminder, ctx.terms!) : invoiceMail(ctx, recipients.salutation);
    const attachments = reminder ? [{ filename: letter!.filename, content: letter!.pdf }] : await this.letters.invoiceDocuments(ctx, manager);
    const sender = senderOf(ctx.companyName, ctx.settings);
    const mail: OutgoingMail = {
      messageId: shipment.messageId as string,
      fromName: sender.name,
      replyTo: ctx.settings.replyTo ?? ctx.settings.senderEmail ?? undefined,
      to: recipients.to,
      ...text,
      attachments,
    };
    return { shipment, channel, attempt, recipient: recipients.to.map((t) => t.address).join(', '), mail };
  }

  /** The attempts on record plus one — or the queue's count, when an attempt died with its process unrecorded. */
  private async attemptNumber(manager: EntityManager, shipment: Shipment, channel: Channel, info: AttemptInfo): Promise<number> {
    return Math.max(await this.shipments.nextAttempt(shipment.companyId, shipment.id, channel, manager), info.retryCount + 1);
  }

  private async sendMail(prepared: Prepared): Promise<MailReceipt> {
    if (!prepared.mail) throw new MailError("no e-mail address: neither the invoice's contact nor any contact of the customer has one (any more)", true);
    return this.mail.send(prepared.mail);
  }

  /** Writes the attempt; a delivered or finally failed channel ends, and the shipment settles when it was the last. */
  private async record(prepared: Prepared, outcome: DeliveryOutcome, sent: Sent | null, error: string | null, final: boolean): Promise<void> {
    await this.shipments.transaction(async (manager) => {
      const shipment = await this.shipments.lockShipment(prepared.shipment.companyId, prepared.shipment.id, manager);
      if (!shipment) return;
      const { channel, attempt, recipient } = prepared;
      await this.shipments.insertDelivery(
        newDelivery(shipment, channel, attempt, outcome, { recipient, provider: sent?.provider ?? this.providerOf(channel), providerId: sent?.providerId ?? null, messageId: channel === 'email' ? shipment.messageId : null, error }),
        manager,
      );
      if (!final || channelStatus(shipment, channel) !== 'pending') return;
      const note = outcome === 'delivered' ? (error && `${channel}: ${error}`) : failureNote(channel, attempt, error);
      await this.outcomes.channelEnded(manager, shipment, channel, outcome === 'delivered' ? 'delivered' : 'failed', note);
    });
  }

  private providerOf(channel: Channel): string {
    return channel === 'post' ? this.postal.name : this.config.mail.transport;
  }
}

const LABEL: Record<Channel, string> = { email: 'e-mail', post: 'letter' };

export function failureNote(channel: Channel, attempts: number, error: string | null): string {
  return `${channel === 'email' ? 'e-mail' : 'post'} failed after ${attempts} attempt(s): ${error}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function fromMail(receipt: MailReceipt): Sent {
  return { provider: receipt.transport, providerId: receipt.providerId, messageId: receipt.messageId, rejected: receipt.rejected };
}

function fromPost(receipt: PostalReceipt): Sent {
  return { provider: receipt.provider, providerId: receipt.providerId, messageId: null, rejected: [] };
}
