// The daily run per company, through the job queue's cron: a tick every five minutes finds the
// companies whose run time has come in their time zone and enqueues their run once (singleton key per
// company and date; the run itself is unique per date).
//
// The run waits for the company's ERP pulls, so reminders are not raised for invoices whose payment is
// already in the ERP: a pull that is queued or running and alive, or a scheduled pull whose time has come
// but which has not started yet (within the last day), holds the run back until a later tick. A pull that failed holds nothing;
// one whose process died (no heartbeat for ERP_PULL_STALE_AFTER_SECONDS, queued and never picked up for
// 15 minutes) holds nothing either. And nothing holds the run longer than PULL_WAIT_LIMIT_MINUTES after
// its run time: then it runs anyway and records which pulls it did not wait for in the run's errors.
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { todayIn } from '../common/calendar-date.js';
import { toPublicId } from '../common/ids.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';
import { QUEUED_STALE_MS } from '../erp-pull/run/erp-pull.service.js';
import { JobQueue } from '../jobs/job-queue.js';
import { DunningPolicyRepository } from '../companies/dunning-policy.repository.js';
import { DunningRunService } from './dunning-run.service.js';
import { DunningRunsRepository } from './dunning-runs.repository.js';

export const TICK_QUEUE = 'dunning.tick';
export const RUN_QUEUE = 'dunning.run';

/** How long after its run time a company's run waits for ERP pulls at most. */
export const PULL_WAIT_LIMIT_MINUTES = 180;

interface RunJob {
  companyId: string;
  date: string;
  /** Recorded with the run (e.g. the pulls it did not wait for). */
  notes?: string[];
}

interface HoldingPull {
  connection_id: string;
  state: 'queued' | 'running' | 'due';
  since: Date;
}

/** HH:MM now in a time zone. */
function localTime(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(now);
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const COMPANIES = statement<{ id: string; time_zone: string }>('dunning.scheduled_companies', 'SELECT id, time_zone FROM companies', {
  crossTenant: 'the scheduler looks at every company for its run time',
});
/** The company's pulls that the run waits for ($2 now, $3 queued staleness in ms, $4 running staleness in s). */
const PULLS_HOLDING_BACK = statement<HoldingPull>(
  'dunning.pulls_holding_back',
  `SELECT r.connection_id, r.status AS state, coalesce(r.started_at, r.queued_at) AS since
     FROM erp_pull_runs r
    WHERE r.company_id = $1
      AND ((r.status = 'queued' AND r.queued_at > $2::timestamptz - $3 * interval '1 millisecond')
        OR (r.status = 'running' AND coalesce(r.heartbeat_at, r.started_at, r.queued_at) > $2::timestamptz - $4 * interval '1 second'))
   UNION ALL
   SELECT c.id, 'due', c.next_pull_at
     FROM erp_connections c
    WHERE c.company_id = $1 AND c.enabled AND c.schedule IS NOT NULL
      AND c.next_pull_at <= $2::timestamptz AND c.next_pull_at > $2::timestamptz - interval '1 day'
      AND NOT EXISTS (SELECT 1 FROM erp_pull_runs r WHERE r.company_id = c.company_id AND r.connection_id = c.id AND r.status IN ('queued', 'running'))`,
);

@Injectable()
export class DunningScheduler implements OnApplicationBootstrap {
  constructor(
    private readonly sql: Sql,
    private readonly queue: JobQueue,
    private readonly policies: DunningPolicyRepository,
    private readonly runs: DunningRunsRepository,
    private readonly runner: DunningRunService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.define({ name: TICK_QUEUE, retryLimit: 0, retryDelaySeconds: 60 });
    await this.queue.define({ name: RUN_QUEUE, retryLimit: 3, retryDelaySeconds: 60, deadLetter: `${RUN_QUEUE}.dead` });
    await this.queue.schedule(TICK_QUEUE, '*/5 * * * *', {}, 'UTC');
    await this.queue.work(TICK_QUEUE, () => this.tick(new Date()));
    await this.queue.work<RunJob>(RUN_QUEUE, (job) => this.runner.run(job.data.companyId, job.data.date, 'schedule', job.data.notes ?? []));
  }

  /** Enqueues today's run of every company whose run time has passed, that has none yet and whose pulls are done. */
  async tick(now: Date): Promise<number> {
    const companies = await this.sql.rows(COMPANIES);
    let enqueued = 0;
    for (const company of companies) {
      const date = todayIn(company.time_zone, now);
      const policy = await this.policies.get(company.id);
      const local = localTime(company.time_zone, now);
      if (local < policy.runAt) continue;
      if (await this.runs.hasScheduledRun(company.id, date)) continue;
      const holding = await this.pullsHoldingBack(company.id, now);
      let notes: string[] = [];
      if (holding.length > 0) {
        if (minutesOf(local) - minutesOf(policy.runAt) < PULL_WAIT_LIMIT_MINUTES) continue;
        notes = holding.map((pull) => `warning: ran without waiting for the ERP pull of ${toPublicId('erp', pull.connection_id)} (${pull.state} since ${pull.since.toISOString()}): waited ${PULL_WAIT_LIMIT_MINUTES} minutes after the run time`);
      }
      await this.queue.send<RunJob>(RUN_QUEUE, { companyId: company.id, date, notes }, { singletonKey: `${company.id}:${date}` });
      enqueued++;
    }
    return enqueued;
  }

  /** The company's pulls that the run waits for at that moment (see the file comment). */
  private async pullsHoldingBack(companyId: string, now: Date): Promise<HoldingPull[]> {
    return this.sql.rows(PULLS_HOLDING_BACK, [companyId, now, QUEUED_STALE_MS, this.config.erp.staleAfterSeconds]);
  }
}
