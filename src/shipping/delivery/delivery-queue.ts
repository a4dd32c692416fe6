// The durable delivery jobs: one queue per channel, retried with exponential backoff on temporary
// failures, then moved to the channel's dead-letter queue (kept there for inspection and replay).
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { JobQueue } from '../../jobs/job-queue.js';
import type { Shipment } from '../shipments/shipment.js';
import type { Channel } from '../routing/shipping-mode.js';

export const DELIVERY_QUEUES: Record<Channel, string> = { email: 'shipping-email', post: 'shipping-post' };
export const deadLetterQueue = (channel: Channel): string => `${DELIVERY_QUEUES[channel]}-dead`;

export interface DeliveryJob {
  companyId: string;
  shipmentId: string;
}

@Injectable()
export class DeliveryQueue {
  private defined?: Promise<void>;

  constructor(
    private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Creates or updates the queues once per process (a queue must exist before a job is sent to it). */
  ensure(): Promise<void> {
    this.defined ??= this.define().catch((error: unknown) => {
      this.defined = undefined;
      throw error;
    });
    return this.defined;
  }

  /** One job per channel, inside the caller's transaction: committed with the decision to ship, or not at all. */
  async enqueue(manager: EntityManager, shipment: Shipment, channels: Channel[]): Promise<void> {
    await this.ensure();
    const job: DeliveryJob = { companyId: shipment.companyId, shipmentId: shipment.id };
    for (const channel of channels) await this.queue.send(DELIVERY_QUEUES[channel], job, { manager });
  }

  private async define(): Promise<void> {
    const { retryLimit, retryDelaySeconds, jobExpireSeconds } = this.config.shipping;
    for (const channel of Object.keys(DELIVERY_QUEUES) as Channel[]) {
      // A delivery that hangs (the process died mid-send) is failed over to a retry after jobExpireSeconds.
      await this.queue.define({ name: DELIVERY_QUEUES[channel], retryLimit, retryDelaySeconds, deadLetter: deadLetterQueue(channel), expireInSeconds: jobExpireSeconds });
    }
  }
}
