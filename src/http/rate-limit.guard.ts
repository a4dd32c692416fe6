// Rate limits per credential (per client address for public routes), with rate-limiter-flexible.
// REST tokens and client addresses share RATE_LIMIT_PER_MINUTE; push credentials (API keys, OAuth
// access tokens) have PUSH_RATE_LIMIT_PER_MINUTE, sized for an ERP's bursts of thousands of documents.
// Counters live in process memory: with several replicas each one counts its own share.
import { type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { AppError } from '../common/errors.js';

const SKIP_RATE_LIMIT = 'rate-limit:skip';

/** Health probes are not rate limited. */
export const SkipRateLimit = (): ClassDecorator & MethodDecorator => SetMetadata(SKIP_RATE_LIMIT, true);

@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limiter: RateLimiterMemory;
  private readonly pushLimiter: RateLimiterMemory;

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limiter = new RateLimiterMemory({ points: config.rateLimit.perMinute, duration: 60 });
    this.pushLimiter = new RateLimiterMemory({ points: config.integration.push.rateLimitPerMinute, duration: 60 });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(SKIP_RATE_LIMIT, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const principal = req.user as Principal | undefined;
    const key = principal ? `${principal.scheme}:${principal.credentialId}` : `ip:${req.ip}`;
    try {
      const push = principal?.scheme === 'apikey' || principal?.scheme === 'bearer';
      const state = await (push ? this.pushLimiter : this.limiter).consume(key);
      res.setHeader('RateLimit-Remaining', String(state.remainingPoints));
      return true;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
      throw new AppError('rate_limited', 'Too many requests: retry after the number of seconds in Retry-After');
    }
  }
}
