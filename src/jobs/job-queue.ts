// The durable job queue (pg-boss on the service's own PostgreSQL). Jobs are enqueued inside the
// transaction of the write that causes them, retried with exponential backoff, and dead-lettered.
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import PgBoss from 'pg-boss';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { DATABASE_URL } from '../database/database-url.js';

export interface QueueDefinition {
  name: string;
  /** Attempts after the first one. */
  retryLimit: number;
  /** Seconds before the first retry; doubled on each further one. */
  retryDelaySeconds: number;
  /** A job that failed every attempt is moved here (listable, replayable). */
  deadLetter?: string;
  expireInSeconds?: number;
}

export type JobHandler<T> = (job: PgBoss.JobWithMetadata<T>) => Promise<unknown>;

@Injectable()
export class JobQueue implements OnApplicationShutdown {
  private readonly logger = new Logger(JobQueue.name);
  private readonly boss: PgBoss;
  private started?: Promise<PgBoss>;

  constructor(@Inject(DATABASE_URL) url: string, @Inject(APP_CONFIG) config: AppConfig) {
    this.boss = new PgBoss({
      connectionString: url,
      schema: 'pgboss',
      migrate: false,
      max: 5,
      schedule: config.jobs.schedule,
      supervise: config.jobs.supervise,
    });
    this.boss.on('error', (error) => this.logger.error({ err: error }, 'job queue error'));
  }

  /** Starts on first use, so processes that never touch the queue open no connections for it. */
  private ready(): Promise<PgBoss> {
    this.started ??= this.boss.start();
    return this.started;
  }

  async define(queue: QueueDefinition): Promise<void> {
    const boss = await this.ready();
    if (queue.deadLetter && !(await boss.getQueue(queue.deadLetter))) await boss.createQueue(queue.deadLetter);
    const options = {
      name: queue.name,
      retryLimit: queue.retryLimit,
      retryDelay: queue.retryDelaySeconds,
      retryBackoff: true,
      ...(queue.deadLetter ? { deadLetter: queue.deadLetter } : {}),
      expireInSeconds: queue.expireInSeconds ?? 15 * 60,
    };
    if (await boss.getQueue(queue.name)) await boss.updateQueue(queue.name, options);
    else await boss.createQueue(queue.name, options);
  }

  /** Enqueues a job; with a manager, inside that manager's transaction (committed or lost together). */
  async send<T extends object>(name: string, data: T, options: { manager?: EntityManager; singletonKey?: string; startAfter?: Date } = {}): Promise<string | null> {
    const boss = await this.ready();
    const { manager, ...rest } = options;
    return boss.send(name, data, { ...rest, db: manager ? transactionDb(manager) : undefined });
  }

  async work<T>(name: string, handler: JobHandler<T>, options: { batchSize?: number; pollingIntervalSeconds?: number } = {}): Promise<string> {
    const boss = await this.ready();
    return boss.work<T>(
      name,
      { includeMetadata: true, batchSize: options.batchSize ?? 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 },
      async (jobs) => {
        for (const job of jobs) await handler(job);
      },
    );
  }

  async schedule(name: string, cron: string, data: object, timeZone: string, key?: string): Promise<void> {
    const boss = await this.ready();
    await boss.schedule(name, cron, data, { tz: timeZone, singletonKey: key });
  }

  async getJob<T>(name: string, id: string): Promise<PgBoss.JobWithMetadata<T> | null> {
    return (await this.ready()).getJobById<T>(name, id, { includeArchive: true });
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.started) await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}

/** pg-boss runs its insert on the caller's transaction connection. */
function transactionDb(manager: EntityManager): PgBoss.Db {
  return {
    executeSql: async (text: string, values: unknown[]) => ({ rows: await manager.query(text, values) }),
  };
}
