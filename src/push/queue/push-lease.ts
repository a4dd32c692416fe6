// The heartbeat of a claimed batch (issue 22): while its attempt runs, the lease of its documents is
// renewed every third of PUSH_LEASE_SECONDS, so a short lease is safe for a long document and a
// replica that died gives its documents back within one lease. It renews for PUSH_ATTEMPT_TIMEOUT_SECONDS
// at most; a batch past that rolls back at its next step instead of committing (assertInTime).
import type { Logger } from '@nestjs/common';
import type { Key } from './push-claims.repository.js';

export interface LeaseTimes {
  leaseSeconds: number;
  attemptTimeoutSeconds: number;
}

export type RenewLease = (docs: Key[], token: string, leaseSeconds: number) => Promise<number>;

/** The attempt ran longer than PUSH_ATTEMPT_TIMEOUT_SECONDS: its transaction is rolled back, the documents failed this attempt. */
export class AttemptTimedOut extends Error {
  constructor(seconds: number) {
    super(`the attempt ran longer than PUSH_ATTEMPT_TIMEOUT_SECONDS (${seconds} s)`);
  }
}

export class PushLease {
  private readonly startedAt = Date.now();
  private timer?: NodeJS.Timeout;
  private beat: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    /** Written by the claim into each document; the effect's statements act only on documents that still carry it. */
    readonly token: string,
    private readonly docs: Key[],
    private readonly times: LeaseTimes,
    private readonly renewal: RenewLease,
    private readonly logger: Logger,
  ) {}

  /** Starts the heartbeat (the claim's own statement set the first lease). */
  start(): this {
    this.schedule();
    return this;
  }

  /** Throws AttemptTimedOut once the attempt has run longer than PUSH_ATTEMPT_TIMEOUT_SECONDS. */
  assertInTime(): void {
    if (this.elapsedMs() > this.times.attemptTimeoutSeconds * 1000) throw new AttemptTimedOut(this.times.attemptTimeoutSeconds);
  }

  /** Ends the heartbeat; waits for a renewal under way, so nothing renews after the attempt's outcome is written. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.beat;
  }

  private elapsedMs(): number {
    return Date.now() - this.startedAt;
  }

  /** One renewal after another (never two at once when the pool is slow to give a connection). */
  private schedule(): void {
    if (this.stopped || this.elapsedMs() >= this.times.attemptTimeoutSeconds * 1000) return;
    this.timer = setTimeout(
      () => {
        this.beat = this.renew().finally(() => this.schedule());
      },
      (this.times.leaseSeconds * 1000) / 3,
    );
    this.timer.unref();
  }

  /**
   * Renews now. The heartbeat leaves rows under the batch's own effect lock alone (their lock keeps every
   * claim off), so a batch that rolled back and runs again renews first: its rows were unlocked with a
   * lease that may have run out meanwhile.
   */
  async renew(): Promise<void> {
    if (this.stopped) return;
    try {
      const held = await this.renewal(this.docs, this.token, this.times.leaseSeconds);
      // Taken over (this process stalled longer than a lease): the effect's statements leave those alone.
      if (held < this.docs.length)
        this.logger.debug({ lease: this.token, lost: this.docs.length - held }, 'push lease: documents no longer held');
    } catch (error) {
      // Database away: the batch's own statements fail too; a lease that ran out meanwhile is taken over,
      // and the token keeps this attempt from committing anything on those documents.
      this.logger.warn({ err: error, lease: this.token }, 'push lease: could not renew');
    }
  }
}
