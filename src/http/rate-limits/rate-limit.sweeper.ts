// Deletes the rate-limit counters of ended windows, hourly, through the job queue's cron: once per hour
// whatever the number of replicas. (A key seen again overwrites its own row; this removes the keys that
// are not: every wrong token guessed is a key of its own.)
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { JobQueue } from '../../jobs/job-queue.js';
import { RateLimitStore } from './rate-limit.store.js';

export const RATE_LIMIT_SWEEP_QUEUE = 'rate_limits.sweep';

@Injectable()
export class RateLimitSweeper implements OnApplicationBootstrap {
  constructor(
    private readonly queue: JobQueue,
    private readonly store: RateLimitStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.define({ name: RATE_LIMIT_SWEEP_QUEUE, retryLimit: 2, retryDelaySeconds: 60, expireInSeconds: 15 * 60 });
    await this.queue.schedule(RATE_LIMIT_SWEEP_QUEUE, '13 * * * *', {}, 'UTC');
    await this.queue.work(RATE_LIMIT_SWEEP_QUEUE, () => this.store.sweep());
  }
}
