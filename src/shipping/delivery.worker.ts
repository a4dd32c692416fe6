// Starts the delivery workers of this process (SHIPPING_WORKERS=false leaves delivering to other replicas).
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { JobQueue } from '../jobs/job-queue.js';
import { DELIVERY_QUEUES, type DeliveryJob, DeliveryQueue } from './delivery-queue.js';
import { DeliveryService } from './delivery.service.js';
import type { Channel } from './shipping-mode.js';

@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap {
  constructor(
    private readonly queue: JobQueue,
    private readonly queues: DeliveryQueue,
    private readonly deliveries: DeliveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.shipping.workers) return;
    await this.queues.ensure();
    for (const channel of Object.keys(DELIVERY_QUEUES) as Channel[]) {
      await this.queue.work<DeliveryJob>(DELIVERY_QUEUES[channel], (job) => this.deliveries.deliver(job.data, channel, job), {
        pollingIntervalSeconds: this.config.shipping.pollingIntervalSeconds,
      });
    }
  }
}
