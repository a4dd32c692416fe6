// The claim of a request's Idempotency-Key, for handlers that store their answer inside the
// transaction of their work (`@Claim() claim?: IdempotencyClaim`): the answer commits with the work
// or not at all, so a committed write can never be done a second time by a retry.
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { AppError } from '../common/errors.js';
import type { ClaimRef, IdempotencyRepository } from './idempotency.repository.js';

export class IdempotencyClaim implements ClaimRef {
  /** The answer stored in the work's transaction; the interceptor stores nothing more after it. */
  answer?: { statusCode: number; body: unknown };

  constructor(
    private readonly keys: IdempotencyRepository,
    readonly companyId: string,
    readonly key: string,
    readonly token: string,
  ) {}

  /** Stores the answer in the caller's transaction; throws (rolling the work back) when a retry took the key over. */
  async store(manager: EntityManager, statusCode: number, body: unknown): Promise<void> {
    if (!(await this.keys.complete(this, statusCode, body, manager))) {
      throw new AppError(
        'idempotency.in_progress',
        'A retry with this Idempotency-Key took the request over; this attempt changed nothing',
      );
    }
    this.answer = { statusCode, body };
  }
}

export type ClaimedRequest = Request & { idempotencyClaim?: IdempotencyClaim };

/** The request's claim; undefined when it carries no Idempotency-Key (or the route is not @Idempotent()). */
export const Claim = createParamDecorator((_data: unknown, ctx: ExecutionContext): IdempotencyClaim | undefined => {
  return ctx.switchToHttp().getRequest<ClaimedRequest>().idempotencyClaim;
});
