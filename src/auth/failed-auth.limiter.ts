// Slows down credential guessing: failed authentications count per client address, and an address
// that failed too often in a minute is answered 429 before its credential is even looked up.
import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { AppError } from '../common/errors.js';

@Injectable()
export class FailedAuthLimiter {
  private readonly failures: RateLimiterMemory;
  private readonly limit: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limit = config.rateLimit.failedAuthPerMinute;
    this.failures = new RateLimiterMemory({ points: this.limit, duration: 60 });
  }

  /** Throws 429 while the address is over its budget of failures. */
  async assertNotBlocked(address: string, res: Response): Promise<void> {
    const state = await this.failures.get(address);
    if (state && state.consumedPoints >= this.limit) this.refuse(state, res);
  }

  async recordFailure(address: string): Promise<void> {
    await this.failures.penalty(address, 1);
  }

  private refuse(state: RateLimiterRes, res: Response): never {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(state.msBeforeNext / 1000))));
    throw new AppError('rate_limited', 'Too many failed authentications from this address: retry after the time in Retry-After');
  }
}
