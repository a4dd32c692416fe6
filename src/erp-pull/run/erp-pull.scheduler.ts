// Starts the pull workers of this process (ERP_PULL_WORKER=false leaves pulling to other replicas) and
// the minute tick that turns due connection schedules into runs. pg-boss's cron sends the tick once
// per minute across all replicas; the tick locks each due connection, so a schedule fires once.
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { JobQueue } from '../../jobs/job-queue.js';
import { ERP_PULL_QUEUE, ERP_PULL_TICK_QUEUE, ErpPullService, type PullJob } from './erp-pull.service.js';

/** Pulls one process runs at the same time (each reads one connection). */
const CONCURRENT_PULLS = 2;

@Injectable()
export class ErpPullScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(ErpPullScheduler.name);

  constructor(
    private readonly queue: JobQueue,
    private readonly pulls: ErpPullService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The run records its own outcome; a retry is only for a job whose process died (expired).
    await this.queue.define({ name: ERP_PULL_QUEUE, retryLimit: 1, retryDelaySeconds: 30, expireInSeconds: 6 * 3600 });
    await this.queue.define({ name: ERP_PULL_TICK_QUEUE, retryLimit: 0, retryDelaySeconds: 1, expireInSeconds: 300 });
    if (!this.config.erp.worker) return;
    await this.queue.schedule(ERP_PULL_TICK_QUEUE, '* * * * *', {}, 'UTC');
    await this.queue.workEach<PullJob>(ERP_PULL_QUEUE, (job) => this.pulls.handleJob(job.data), { batchSize: 1, concurrency: 1 });
    for (let i = 1; i < CONCURRENT_PULLS; i++) {
      await this.queue.workEach<PullJob>(ERP_PULL_QUEUE, (job) => this.pulls.handleJob(job.data), { batchSize: 1, concurrency: 1 });
    }
    await this.queue.work(ERP_PULL_TICK_QUEUE, async () => {
      const started = await this.pulls.enqueueDue();
      if (started) this.logger.log({ started }, 'scheduled ERP pulls enqueued');
    });
  }
}
