// Pull runs: started on request or by the schedule, one at a time per connection, executed by a
// job-queue worker. A run whose process died (no heartbeat) is declared interrupted and the next run
// resumes from the last committed watermark.
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CompanyContext } from '../../auth/principal.js';
import { addDays } from '../../common/calendar-date.js';
import { AppError } from '../../common/errors.js';
import { parsePublicId, toPublicId } from '../../common/ids.js';
import type { PageRequest } from '../../common/pagination.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { JobQueue } from '../../jobs/job-queue.js';
import type { ErpConnection } from '../connections/erp-connection.entity.js';
import { ErpConnectionsRepository } from '../connections/erp-connections.repository.js';
import { ErpPullRunner } from './erp-pull.runner.js';
import type { PullMode, PullRun, PullTrigger } from './pull-run.entity.js';
import { PullRunsRepository } from './pull-runs.repository.js';
import { nextPullAt } from './pull-schedule.js';

export const ERP_PULL_QUEUE = 'erp-pull';
/** Every minute (pg-boss cron: once across replicas) the due connections get a run. */
export const ERP_PULL_TICK_QUEUE = 'erp-pull-tick';

export interface PullJob {
  companyId: string;
  runId: string;
}

/** A queued run nobody picked up for this long (no worker anywhere, a lost job) no longer blocks. */
export const QUEUED_STALE_MS = 15 * 60_000;

@Injectable()
export class ErpPullService {
  private readonly logger = new Logger(ErpPullService.name);

  constructor(
    private readonly connections: ErpConnectionsRepository,
    private readonly runs: PullRunsRepository,
    private readonly runner: ErpPullRunner,
    private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** POST …/pulls: a run now, or a 409 naming the run that is already under way. */
  async startNow(company: CompanyContext, connectionPublicId: string, mode: PullMode): Promise<PullRun> {
    return this.connections.transaction(async (manager) => {
      const connection = await this.requireConnection(company, connectionPublicId, manager);
      const { run, active } = await this.enqueue(manager, connection, 'manual', mode);
      if (run) return run;
      throw new AppError('erp_pull.already_running', `A pull of this connection is already ${active!.status}`, [], {
        pull_run_id: toPublicId('pul', active!.id),
      });
    });
  }

  async list(company: CompanyContext, connectionPublicId: string, page: PageRequest): Promise<{ runs: PullRun[]; total: number }> {
    const connection = await this.requireConnection(company, connectionPublicId);
    return this.runs.list(company.id, connection.id, page);
  }

  async get(company: CompanyContext, connectionPublicId: string, runPublicId: string): Promise<PullRun> {
    const connection = await this.requireConnection(company, connectionPublicId);
    const id = parsePublicId('pul', runPublicId);
    const run = id ? await this.runs.findById(company.id, id) : null;
    if (!run || run.connectionId !== connection.id) throw new AppError('erp_pull_run.not_found', `Pull run ${runPublicId} was not found`);
    return run;
  }

  /** The queue's job: start the run and execute it. A retried job whose first attempt died resumes. */
  async handleJob(job: PullJob): Promise<void> {
    let run = await this.runs.start(job.companyId, job.runId);
    if (!run) run = await this.resumeIfAbandoned(job);
    if (run) await this.runner.execute(run);
  }

  /** The scheduler's tick: a run for every connection whose schedule is due; returns how many. */
  async enqueueDue(now = new Date()): Promise<number> {
    let started = 0;
    for (const { companyId, id } of await this.connections.due()) {
      await this.connections.transaction(async (manager) => {
        const due = await this.connections.lockIfDue(manager, companyId, id);
        if (!due) return;
        await this.connections.setNextPullAt(manager, companyId, id, nextPullAt(due.connection.schedule!, due.timeZone, now));
        const { run } = await this.enqueue(manager, due.connection, 'schedule', this.scheduledMode(due.connection, now));
        if (run) started++;
      });
    }
    return started;
  }

  /** Incremental, or full when the last reconciliation is older than ERP_RECONCILE_EVERY_DAYS (never done: due). */
  private scheduledMode(connection: ErpConnection, now: Date): PullMode {
    const every = this.config.erp.reconcileEveryDays;
    const last = connection.watermarks.reconciled;
    if (every === 0 || !connection.watermarks.receivables) return 'incremental';
    return !last || addDays(last, every) <= now.toISOString().slice(0, 10) ? 'full' : 'incremental';
  }

  /** A queued run and its job, in one transaction; an active run that is still alive wins. */
  private async enqueue(
    manager: EntityManager,
    connection: ErpConnection,
    trigger: PullTrigger,
    mode: PullMode,
  ): Promise<{ run?: PullRun; active?: PullRun }> {
    const active = await this.runs.findActive(manager, connection.companyId, connection.id);
    if (active && !this.isAbandoned(active)) return { active };
    if (active) await this.runs.interrupt(manager, connection.companyId, active.id, this.interruption(active));
    const run = await this.runs.insertQueued(manager, {
      companyId: connection.companyId,
      connectionId: connection.id,
      trigger: active && trigger === 'schedule' ? 'resume' : trigger,
      mode,
      resumedFrom: active?.id ?? null,
      watermarkFrom: connection.watermarks,
    });
    if (!run) return {};
    await this.queue.send<PullJob>(ERP_PULL_QUEUE, { companyId: run.companyId, runId: run.id }, { manager });
    return { run };
  }

  private async resumeIfAbandoned(job: PullJob): Promise<PullRun | null> {
    const current = await this.runs.findById(job.companyId, job.runId);
    if (!current || current.status !== 'running' || !this.isAbandoned(current)) return null;
    const resumed = await this.connections.transaction(async (manager) => {
      const connection = await this.connections.findById(job.companyId, current.connectionId, manager);
      const active = connection && (await this.runs.findActive(manager, job.companyId, connection.id));
      if (!connection || active?.id !== current.id) return null;
      await this.runs.interrupt(manager, job.companyId, current.id, this.interruption(current));
      return this.runs.insertQueued(manager, {
        companyId: job.companyId,
        connectionId: connection.id,
        trigger: 'resume',
        mode: current.mode,
        resumedFrom: current.id,
        watermarkFrom: connection.watermarks,
      });
    });
    this.logger.warn({ run: toPublicId('pul', current.id) }, 'ERP pull run abandoned by its worker: resuming');
    return resumed ? this.runs.start(job.companyId, resumed.id) : null;
  }

  private isAbandoned(run: PullRun, now = Date.now()): boolean {
    if (run.status === 'queued') return now - run.queuedAt.getTime() > QUEUED_STALE_MS;
    const last = (run.heartbeatAt ?? run.startedAt ?? run.queuedAt).getTime();
    return now - last > this.config.erp.staleAfterSeconds * 1000;
  }

  private interruption(run: PullRun): string {
    const last = run.heartbeatAt ?? run.queuedAt;
    return `interrupted: no sign of life since ${last.toISOString()} (its process stopped); the next run resumes from the last committed watermark`;
  }

  private async requireConnection(company: CompanyContext, publicId: string, manager?: EntityManager): Promise<ErpConnection> {
    const id = parsePublicId('erp', publicId);
    const connection = id ? await this.connections.findById(company.id, id, manager) : null;
    if (!connection) throw new AppError('erp_connection.not_found', `ERP connection ${publicId} was not found`);
    return connection;
  }
}
