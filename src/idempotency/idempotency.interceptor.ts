// `Idempotency-Key` on POST (DESIGN.md): a retry with the same key and body gets the first answer
// again; the same key with another body is a 422; a retry while the first is still running is a 409.
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, UseInterceptors } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { from, type Observable, of, switchMap, tap, catchError, throwError } from 'rxjs';
import type { Principal } from '../auth/principal.js';
import { AppError } from '../common/errors.js';
import { IdempotencyRepository } from './idempotency.repository.js';

const KEY = /^[\x21-\x7e]{1,255}$/;

/** Route-level so that it runs after upload interceptors: the hash covers the files too. */
export const Idempotent = () => UseInterceptors(IdempotencyInterceptor);

function requestHash(req: Request): Buffer {
  const uploads = (req as Request & { uploads?: Record<string, { sha256: string }> }).uploads ?? {};
  const files = Object.fromEntries(Object.entries(uploads).map(([field, file]) => [field, file.sha256]));
  return createHash('sha256')
    .update(JSON.stringify([req.method, req.path, req.body ?? null, files]))
    .digest();
}

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly keys: IdempotencyRepository) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.header('idempotency-key');
    const principal = req.user as Principal | undefined;
    if (key === undefined || req.method !== 'POST' || !principal) return next.handle();
    if (!KEY.test(key)) {
      return throwError(() => new AppError('request.malformed', 'Idempotency-Key must be 1 to 255 visible ASCII characters'));
    }
    const companyId = principal.company.id;
    const hash = requestHash(req);
    return from(this.keys.claim(companyId, key, hash)).pipe(
      switchMap((earlier) => {
        if (!earlier) return this.runAndRemember(companyId, key, res, next);
        if (!earlier.requestHash.equals(hash)) {
          throw new AppError('idempotency.key_reused', 'This Idempotency-Key was used with a different request', [
            { field: 'Idempotency-Key', message: 'already used for a different request body' },
          ]);
        }
        if (earlier.statusCode === null) {
          throw new AppError('idempotency.in_progress', 'A request with this Idempotency-Key is still being processed');
        }
        res.status(earlier.statusCode).setHeader('Idempotent-Replayed', 'true');
        return of(earlier.responseBody);
      }),
    );
  }

  private runAndRemember(companyId: string, key: string, res: Response, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      switchMap((body) => from(this.keys.complete(companyId, key, res.statusCode, body)).pipe(switchMap(() => of(body)))),
      catchError((error: unknown) => from(this.keys.release(companyId, key)).pipe(switchMap(() => throwError(() => error)))),
    );
  }
}
