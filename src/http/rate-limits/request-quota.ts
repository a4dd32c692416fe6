// The rate limit of a request, per credential (per client address for public routes), shared by all
// replicas through PostgreSQL (shared-quota.ts: points claimed in chunks, so a request normally costs no
// round trip). REST tokens and client addresses share RATE_LIMIT_PER_MINUTE; push credentials (API keys,
// OAuth access tokens) have PUSH_RATE_LIMIT_PER_MINUTE, sized for an ERP's bursts of thousands of documents.
// RateLimit-Remaining is what this replica holds plus what the shared window had left at its last claim:
// other replicas may have spent some of that since, so it is an upper bound.
// The global RateLimitGuard applies it to every route; the hot reads (src/http/hot-reads) call it too.
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Principal } from '../../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { AppError } from '../../common/errors.js';
import { RateLimitStore } from './rate-limit.store.js';
import { SharedQuota } from './shared-quota.js';

const WINDOW_SECONDS = 60;

@Injectable()
export class RequestQuota {
  private readonly limiter: SharedQuota;
  private readonly pushLimiter: SharedQuota;

  constructor(@Inject(APP_CONFIG) config: AppConfig, store: RateLimitStore) {
    this.limiter = new SharedQuota(store, 'requests:', config.rateLimit.perMinute, WINDOW_SECONDS);
    this.pushLimiter = new SharedQuota(store, 'push:', config.integration.push.rateLimitPerMinute, WINDOW_SECONDS);
  }

  /** Spends one point of the request's credential (`req.user`, else its address), or throws the 429. */
  async admit(req: Request, res: Response): Promise<void> {
    const principal = req.user as Principal | undefined;
    const key = principal ? `${principal.scheme}:${principal.credentialId}` : `ip:${req.ip}`;
    const push = principal?.scheme === 'apikey' || principal?.scheme === 'bearer';
    const answer = await (push ? this.pushLimiter : this.limiter).consume(key);
    if (answer.admitted) {
      res.setHeader('RateLimit-Remaining', String(answer.remaining));
      return;
    }
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(answer.retryAfterMs / 1000))));
    throw new AppError('rate_limited', 'Too many requests: retry after the number of seconds in Retry-After');
  }
}
