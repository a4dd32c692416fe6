// Deletes idempotency keys past their 24 hours, hourly, through the job queue's cron: once per hour
// whatever the number of replicas.
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { JobQueue } from '../jobs/job-queue.js';
import { IdempotencyRepository } from './idempotency.repository.js';

export const SWEEP_QUEUE = 'idempotency.sweep';

@Injectable()
export class IdempotencySweeper implements OnApplicationBootstrap {
  constructor(
    private readonly queue: JobQueue,
    private readonly keys: IdempotencyRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.define({ name: SWEEP_QUEUE, retryLimit: 2, retryDelaySeconds: 60, expireInSeconds: 15 * 60 });
    await this.queue.schedule(SWEEP_QUEUE, '7 * * * *', {}, 'UTC');
    await this.queue.work(SWEEP_QUEUE, () => this.keys.sweepExpired());
  }
}
