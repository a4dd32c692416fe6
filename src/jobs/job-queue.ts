// The durable job queue (pg-boss on the service's own PostgreSQL). Jobs are enqueued inside the
// transaction of the write that causes them, retried with exponential backoff, and dead-lettered.
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import PgBoss from 'pg-boss';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { DATABASE_URL } from '../database/database-url.js';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';

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

/**
 * Held (for its transaction) while a queue is created or updated. pg-boss's create_queue inserts the
 * queue's row and attaches a partition to the job table; two processes doing that at once deadlock
 * (40P01: replicas started together on a new database crashed, issue 22). One definition at a time,
 * across every replica, is cheap: a dozen queues at start-up, nothing later.
 */
const QUEUE_DEFINITION_LOCK = statement(
  'jobs.lock_queue_definitions',
  `SELECT pg_advisory_xact_lock(hashtextextended('jobs.queue_definitions', 0))`,
);

export type JobHandler<T> = (job: PgBoss.JobWithMetadata<T>) => Promise<unknown>;

@Injectable()
export class JobQueue implements OnApplicationShutdown {
  private readonly logger = new Logger(JobQueue.name);
  private readonly boss: PgBoss;
  private started?: Promise<PgBoss>;
  /** The workEach() loops, and how to cut their pauses short when the application stops. */
  private readonly loops: Array<Promise<void>> = [];
  private readonly wakeUps = new Set<() => void>();
  private stopping = false;
  /** This process's definitions, one after another (each then waits for the cross-process lock alone). */
  private definitions: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(DATABASE_URL) url: string,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sql: Sql,
  ) {
    this.boss = new PgBoss({
      connectionString: url,
      schema: 'pgboss',
      migrate: false,
      max: 5,
      schedule: config.jobs.schedule,
      supervise: config.jobs.supervise,
      maintenanceIntervalSeconds: config.jobs.maintenanceIntervalSeconds,
    });
    this.boss.on('error', (error) => {
      // While the service stops, pg-boss may still hold a connection its background work opened when the
      // (embedded) database shuts down with it: 57P01 (admin_shutdown) then is part of stopping, no fault.
      if (this.stopping && (error as { code?: string }).code === '57P01')
        this.logger.debug({ err: error }, 'job queue connection ended at shutdown');
      else this.logger.error({ err: error }, 'job queue error');
    });
  }

  /** Starts on first use, so processes that never touch the queue open no connections for it. */
  private ready(): Promise<PgBoss> {
    this.started ??= this.boss.start();
    return this.started;
  }

  async define(queue: QueueDefinition): Promise<void> {
    const boss = await this.ready();
    const defined = this.definitions.then(() =>
      this.sql.transaction(async (manager) => {
        await this.sql.run(QUEUE_DEFINITION_LOCK, [], manager);
        await this.createOrUpdate(boss, queue);
      }),
    );
    this.definitions = defined.catch(() => undefined);
    await defined;
  }

  private async createOrUpdate(boss: PgBoss, queue: QueueDefinition): Promise<void> {
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
  async send<T extends object>(
    name: string,
    data: T,
    options: { manager?: EntityManager; singletonKey?: string; startAfter?: Date } = {},
  ): Promise<string | null> {
    const boss = await this.ready();
    const { manager, ...rest } = options;
    return boss.send(name, data, { ...rest, db: manager ? this.transactionDb(manager) : undefined });
  }

  /** Enqueues many jobs in one statement, inside the manager's transaction. */
  async sendMany<T extends object>(name: string, items: T[], manager: EntityManager): Promise<void> {
    if (items.length === 0) return;
    const boss = await this.ready();
    await boss.insert(
      items.map((data) => ({ name, data })),
      { db: this.transactionDb(manager) },
    );
  }

  /** Runs the handler for each job of the queue, one at a time (see workEach for why the loop is ours). */
  work<T>(name: string, handler: JobHandler<T>, options: { batchSize?: number; pollingIntervalSeconds?: number } = {}): Promise<void> {
    return this.workEach(name, handler, {
      batchSize: options.batchSize ?? 1,
      concurrency: 1,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
    });
  }

  /**
   * Each job of a fetched batch settles on its own: a job whose handler throws is
   * failed (retried or dead-lettered) alone, the others complete. Up to `concurrency` jobs of a batch
   * run at the same time, and a full batch is followed by the next fetch at once. The loop is our own
   * (fetch, complete, fail, each awaited): pg-boss's work() leaves its complete/fail promises floating,
   * which ends the process with an unhandled rejection when the database goes away at that moment.
   */
  async workEach<T>(
    name: string,
    handler: JobHandler<T>,
    options: { batchSize: number; concurrency: number; pollingIntervalSeconds?: number },
  ): Promise<void> {
    const boss = await this.ready();
    const pollMs = (options.pollingIntervalSeconds ?? 0.5) * 1000;
    const settle = async (job: PgBoss.JobWithMetadata<T>, done: string[]) => {
      try {
        await handler(job);
        done.push(job.id);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // Not recorded (database away): the job stays active, expires and is retried.
        await boss.fail(name, job.id, { message }).catch((e: unknown) => this.logger.error({ err: e }, 'could not fail a job'));
      }
    };
    const loop = async () => {
      while (!this.stopping) {
        const jobs = await boss.fetch<T>(name, { batchSize: options.batchSize, includeMetadata: true }).catch(() => null);
        const done: string[] = [];
        if (jobs?.length) {
          let next = 0;
          const lanes = Array.from({ length: Math.min(options.concurrency, jobs.length) }, async () => {
            while (next < jobs.length) await settle(jobs[next++], done);
          });
          await Promise.all(lanes);
          if (done.length) await boss.complete(name, done).catch((e: unknown) => this.logger.error({ err: e }, 'could not complete jobs'));
        }
        if (!jobs || jobs.length < options.batchSize) await this.pause(pollMs);
      }
    };
    this.loops.push(loop());
  }

  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakeUps.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeUps.add(wake);
    });
  }

  async schedule(name: string, cron: string, data: object, timeZone: string, key?: string): Promise<void> {
    const boss = await this.ready();
    await boss.schedule(name, cron, data, { tz: timeZone, singletonKey: key });
  }

  async getJob<T>(name: string, id: string): Promise<PgBoss.JobWithMetadata<T> | null> {
    return (await this.ready()).getJobById<T>(name, id, { includeArchive: true });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const wake of this.wakeUps) wake();
    await Promise.all(this.loops);
    if (!this.started) return;
    // A stop while pg-boss is still starting (a SIGTERM right after start) would leave the connections its
    // start opens afterwards to be cut by the database's shutdown, each an error line: let it finish first.
    await this.started.catch(() => undefined);
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  /** pg-boss runs its insert on the caller's transaction connection. */
  private transactionDb(manager: EntityManager): PgBoss.Db {
    return { executeSql: async (text: string, values: unknown[]) => ({ rows: await this.sql.foreign(text, values, manager) }) };
  }
}
