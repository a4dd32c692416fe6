// How often a password reset may be asked for: per client address and per e-mail address, counted for
// every request whether the address has an account or not (so the limit tells nothing about accounts).
// Counted in the rate-limit counters all replicas share (src/http/rate-limits): one statement per request
// for both keys, so three replicas send no more reset e-mails than one. The e-mail address only as a hash.
import { Inject, Injectable } from '@nestjs/common';
import { credentialIdentifier } from '../../auth/failed-auth.limiter.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { RateLimitStore } from '../../http/rate-limits/rate-limit.store.js';

/** Reset e-mails to one address per hour: enough for a lost first mail, too few to flood a mailbox. */
export const RESETS_PER_EMAIL_PER_HOUR = 3;
const WINDOW_SECONDS = 60 * 60;

@Injectable()
export class ResetRequestLimiter {
  /** An office behind one NAT address asks for a few resets an hour; the sign-in budget per minute is plenty. */
  private readonly perAddress: number;

  constructor(
    private readonly store: RateLimitStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.perAddress = config.rateLimit.failedAuthPerMinute;
  }

  /** Counts one request; answers the seconds to wait when the address or the e-mail is over its budget. */
  async consume(address: string, email: string): Promise<number | null> {
    const addressKey = `reset:address:${address}`;
    const emailKey = `reset:${credentialIdentifier('email', email, true)}`;
    const counters = await this.store.add([addressKey, emailKey], 1, WINDOW_SECONDS);
    const over = counters.filter((c) => c.points > (c.key === addressKey ? this.perAddress : RESETS_PER_EMAIL_PER_HOUR));
    if (over.length === 0) return null;
    return Math.max(1, Math.ceil(Math.max(...over.map((c) => c.msLeft)) / 1000));
  }
}
