// The daily run per company, through the job queue's cron: a tick every five minutes finds the
// companies whose run time has come in their time zone and enqueues their run once (singleton key per
// company and date; the run itself is unique per date). A company whose ERP pull is still going waits
// for the next tick, so reminders are not raised for invoices whose payment is already in the ERP.
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { todayIn } from '../common/calendar-date.js';
import { JobQueue } from '../jobs/job-queue.js';
import { DunningPolicyRepository } from './dunning-policy.repository.js';
import { DunningRunService } from './dunning-run.service.js';
import { DunningRunsRepository } from './dunning-runs.repository.js';

export const TICK_QUEUE = 'dunning.tick';
export const RUN_QUEUE = 'dunning.run';

interface RunJob {
  companyId: string;
  date: string;
}

/** HH:MM now in a time zone. */
function localTime(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(now);
}

@Injectable()
export class DunningScheduler implements OnApplicationBootstrap {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: JobQueue,
    private readonly policies: DunningPolicyRepository,
    private readonly runs: DunningRunsRepository,
    private readonly runner: DunningRunService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.define({ name: TICK_QUEUE, retryLimit: 0, retryDelaySeconds: 60 });
    await this.queue.define({ name: RUN_QUEUE, retryLimit: 3, retryDelaySeconds: 60, deadLetter: `${RUN_QUEUE}.dead` });
    await this.queue.schedule(TICK_QUEUE, '*/5 * * * *', {}, 'UTC');
    await this.queue.work(TICK_QUEUE, () => this.tick(new Date()));
    await this.queue.work<RunJob>(RUN_QUEUE, (job) => this.runner.run(job.data.companyId, job.data.date, 'schedule'));
  }

  /** Enqueues today's run of every company whose run time has passed and that has none yet. */
  async tick(now: Date): Promise<number> {
    const companies: Array<{ id: string; time_zone: string }> = await this.db.query(`SELECT id, time_zone FROM companies`);
    let enqueued = 0;
    for (const company of companies) {
      const date = todayIn(company.time_zone, now);
      const policy = await this.policies.get(company.id);
      if (localTime(company.time_zone, now) < policy.runAt) continue;
      if (await this.runs.hasScheduledRun(company.id, date)) continue;
      if (await this.pullInProgress(company.id)) continue;
      await this.queue.send<RunJob>(RUN_QUEUE, { companyId: company.id, date }, { singletonKey: `${company.id}:${date}` });
      enqueued++;
    }
    return enqueued;
  }

  private async pullInProgress(companyId: string): Promise<boolean> {
    const rows = await this.db.query(
      `SELECT 1 FROM erp_pull_runs WHERE company_id = $1 AND status IN ('queued', 'running') LIMIT 1`,
      [companyId],
    );
    return rows.length > 0;
  }
}
