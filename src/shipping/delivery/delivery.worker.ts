// Starts the delivery workers of this process (SHIPPING_WORKERS=false leaves delivering to other replicas)
// and the periodic sweep of deliveries that no job will finish (StalledDeliveries).
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { JobQueue } from '../../jobs/job-queue.js';
import { DELIVERY_QUEUES, type DeliveryJob, DeliveryQueue } from './delivery-queue.js';
import { DeliveryService } from './delivery.service.js';
import type { Channel } from '../routing/shipping-mode.js';
import { StalledDeliveries } from './stalled-deliveries.js';

@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DeliveryWorker.name);
  private sweepTimer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;

  constructor(
    private readonly queue: JobQueue,
    private readonly queues: DeliveryQueue,
    private readonly deliveries: DeliveryService,
    private readonly stalled: StalledDeliveries,
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
    this.sweepTimer = setInterval(() => this.sweep(), this.config.shipping.sweepSeconds * 1000);
    this.sweepTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweepTimer);
    await this.sweeping;
  }

  /** One sweep at a time; a failed sweep (database away) is simply tried again at the next tick. */
  private sweep(): void {
    if (this.sweeping) return;
    this.sweeping = this.stalled
      .sweep()
      .then(() => undefined)
      .catch((error: unknown) => this.logger.error({ err: error }, 'sweep of stalled deliveries failed'))
      .finally(() => (this.sweeping = undefined));
  }
}
