// The rate limit on every route but those marked @SkipRateLimit() (health probes): RequestQuota's rules
// (rate-limits/request-quota.ts), once the credential is known.
import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { RequestQuota } from './rate-limits/request-quota.js';

const SKIP_RATE_LIMIT = 'rate-limit:skip';

/** Health probes are not rate limited. */
export const SkipRateLimit = (): ClassDecorator & MethodDecorator => SetMetadata(SKIP_RATE_LIMIT, true);

@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly quota: RequestQuota,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(SKIP_RATE_LIMIT, [context.getHandler(), context.getClass()])) return true;
    const http = context.switchToHttp();
    await this.quota.admit(http.getRequest<Request>(), http.getResponse<Response>());
    return true;
  }
}
