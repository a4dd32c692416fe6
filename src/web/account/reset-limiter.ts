// How often a password reset may be asked for: per client address and per e-mail address, counted for
// every request whether the address has an account or not (so the limit tells nothing about accounts).
// The sign-in limiter's mechanism (src/auth/failed-auth.limiter.ts): rate-limiter-flexible's memory
// limiter, the e-mail address only as a hash of it.
import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { credentialIdentifier } from '../../auth/failed-auth.limiter.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';

/** Reset e-mails to one address per hour: enough for a lost first mail, too few to flood a mailbox. */
export const RESETS_PER_EMAIL_PER_HOUR = 3;
const WINDOW_SECONDS = 60 * 60;

@Injectable()
export class ResetRequestLimiter {
  private readonly byAddress: RateLimiterMemory;
  private readonly byEmail = new RateLimiterMemory({ points: RESETS_PER_EMAIL_PER_HOUR, duration: WINDOW_SECONDS });

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // An office behind one NAT address asks for a few resets an hour; the sign-in budget per minute is plenty.
    this.byAddress = new RateLimiterMemory({ points: config.rateLimit.failedAuthPerMinute, duration: WINDOW_SECONDS });
  }

  /** Counts one request; answers the seconds to wait when the address or the e-mail is over its budget. */
  async consume(address: string, email: string): Promise<number | null> {
    const identifier = credentialIdentifier('reset', email, true);
    try {
      await this.byAddress.consume(address);
      await this.byEmail.consume(identifier);
      return null;
    } catch (error) {
      if (error instanceof RateLimiterRes) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw error;
    }
  }
}
