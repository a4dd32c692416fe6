// Processes pushed documents in batches claimed from push_documents (FOR UPDATE SKIP LOCKED: safe
// with several replicas), retried with exponential backoff, then dead-lettered. Each attempt is
// recorded (attempt n, succeeded / failed). A batch is one transaction with a SAVEPOINT per document:
// a failing document rolls back alone, and the effects and their `processed` markers commit together,
// so a document takes effect exactly once whatever crashes happen (PushBatch). Versions of one
// external_id are applied in order: a document whose earlier version is still pending waits (deferred).
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import type { PushDocument } from '../push-document.js';
import { IntakeYield } from './intake-yield.js';
import { PushBatch } from './push-batch.js';
import { type ClaimedDocument, PushClaimsRepository } from './push-claims.repository.js';
import { failedAttempts } from './push-failures.js';
import { PushLease } from './push-lease.js';
import { PushQueueRepository } from './push-queue.repository.js';
import { PushSignal } from './push-signal.js';

/** How often an idle worker looks for due documents (retries, deferrals, other replicas' pushes). */
const POLL_MS = 250;

@Injectable()
export class PushWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PushWorker.name);
  private readonly lanes: Array<Promise<void>> = [];
  private stopping = false;
  /** Set by a wake-up that came while the lanes were busy: the next pause is skipped. */
  private woken = false;
  private readonly sleepers = new Set<() => void>();
  private readonly intake: IntakeYield;
  private unsubscribe?: () => void;

  constructor(
    private readonly claims: PushClaimsRepository,
    private readonly queue: PushQueueRepository,
    private readonly batch: PushBatch,
    private readonly signal: PushSignal,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.intake = new IntakeYield(config.integration.push.maxYieldMs);
  }

  onApplicationBootstrap(): void {
    const push = this.config.integration.push;
    if (!push.worker) return;
    this.unsubscribe = this.signal.subscribe(() => {
      this.intake.accepted();
      this.wake();
    });
    for (let i = 0; i < push.concurrency; i++) this.lanes.push(this.lane());
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    this.wake();
    await Promise.all(this.lanes);
  }

  /**
   * One lane: claim a batch, process it, again at once while there is more; else wait for a wake-up or the
   * next poll. A poll that no wake-up brought asks whether anything is due before it claims (anyDue).
   */
  private async lane(): Promise<void> {
    const { batchSize } = this.config.integration.push;
    let polled = false;
    while (!this.stopping) {
      let claimed = 0;
      await this.intake.giveWay(() => this.stopping);
      try {
        if (!polled || (await this.claims.anyDue())) claimed = await this.runOnce(batchSize);
      } catch (error) {
        // Database away: the claimed documents keep their lease and are taken again after it.
        this.logger.warn({ err: error }, 'push worker: could not claim or process a batch');
      }
      if (claimed < batchSize) polled = (await this.pause(POLL_MS)) === 'poll';
      else {
        polled = false;
        await new Promise<void>((resolve) => setImmediate(resolve)); // HTTP gets its turn between batches
      }
    }
  }

  private wake(): void {
    this.woken = true;
    for (const sleeper of this.sleepers) sleeper();
  }

  /** Waits `ms`, or less if a wake-up comes (or came while the lane was busy); says which ended it. */
  private pause(ms: number): Promise<'poll' | 'woken'> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve('woken');
    }
    return new Promise((resolve) => {
      const done = (why: 'poll' | 'woken') => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        this.woken = false;
        resolve(why);
      };
      const wake = () => done('woken');
      const timer = setTimeout(() => done('poll'), ms);
      this.sleepers.add(wake);
    });
  }

  /** Claims and processes one batch; returns how many documents it claimed. */
  async runOnce(limit: number): Promise<number> {
    const push = this.config.integration.push;
    const { started, lease, deferred, deadLettered } = await this.claims.claim(limit, {
      retryLimit: push.retryLimit,
      leaseSeconds: push.leaseSeconds,
      deferSeconds: push.deferSeconds,
    });
    await this.queue.wakeSuccessors(deadLettered);
    await this.queue.wakeIfFree(deferred);
    if (started.length) await this.process(started, lease);
    return started.length + deferred.length + deadLettered.length;
  }

  /**
   * One attempt at each claimed document (PushBatch) under the claim's lease, renewed by a heartbeat until
   * the outcome is written; then the failed ones are recorded and the waiting versions woken.
   */
  async process(claimed: ClaimedDocument[], token: string): Promise<void> {
    const push = this.config.integration.push;
    const lease = new PushLease(
      token,
      claimed.map((c) => c.document),
      push,
      (docs, t, seconds) => this.queue.renewLease(docs, t, seconds),
      this.logger,
    ).start();
    try {
      const done = await this.batch.run(claimed, lease);
      await this.recordFailures(done.failed, token);
      await this.queue.wakeSuccessors(done.waiting);
    } finally {
      await lease.stop();
    }
  }

  private async recordFailures(failures: Array<{ document: PushDocument; error: unknown }>, token: string): Promise<void> {
    if (failures.length === 0) return;
    const push = this.config.integration.push;
    const failed = failedAttempts(failures, push.retryLimit, this.logger);
    await this.queue.markFailed(failed, push.retryBaseSeconds, token);
    await this.queue.wakeSuccessors(failed.filter((f) => f.final).map((f) => f.document));
  }
}
