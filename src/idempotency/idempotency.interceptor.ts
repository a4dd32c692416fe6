// `Idempotency-Key` on POST (DESIGN.md): a retry with the same key and body gets the first answer
// again; the same key with another body is a 422; a retry while the first is still running is a 409.
import { type CallHandler, type ExecutionContext, Inject, Injectable, Logger, type NestInterceptor, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { createHash, createHmac, hkdfSync, randomUUID } from 'node:crypto';
import { catchError, from, map, type Observable, of, switchMap, throwError } from 'rxjs';
import type { Principal } from '../auth/principal.js';
import { AppError } from '../common/errors.js';
import { APP_CONFIG, type AppConfig, secretsKeyBytes } from '../config/app.config.js';
import { type ClaimedRequest, IdempotencyClaim } from './idempotency-claim.js';
import { IdempotencyRepository } from './idempotency.repository.js';

const KEY = /^[\x21-\x7e]{1,255}$/;

/** Route-level so that it runs after upload interceptors: the hash covers the files too. */
export const Idempotent = () => UseInterceptors(IdempotencyInterceptor);

/**
 * The key of the request HMAC: derived from SECRETS_KEY (HKDF, its own purpose), so the stored hash of
 * a body with secrets in it (ERP passwords) cannot be tested against guesses by whoever reads the
 * table. Without SECRETS_KEY (development and test only) a fixed key that protects nothing.
 */
function hmacKey(config: AppConfig): Buffer {
  const secret =
    (config.secretsKey && secretsKeyBytes(config.secretsKey)) ||
    createHash('sha256').update('receivables-service development key (not secret)').digest();
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'idempotency request hash v1', 32));
}

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');
  private readonly hmacKey: Buffer;

  constructor(
    private readonly keys: IdempotencyRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.hmacKey = hmacKey(config);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<ClaimedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.header('idempotency-key');
    const principal = req.user as Principal | undefined;
    if (key === undefined || req.method !== 'POST' || !principal) return next.handle();
    if (!KEY.test(key)) {
      return throwError(() => new AppError('request.malformed', 'Idempotency-Key must be 1 to 255 visible ASCII characters'));
    }
    const claim = new IdempotencyClaim(this.keys, principal.company.id, key, randomUUID());
    const hash = this.requestHash(req);
    return from(this.keys.claim(claim, hash)).pipe(
      switchMap((earlier) => {
        if (!earlier) {
          req.idempotencyClaim = claim;
          return this.runAndRemember(claim, res, next);
        }
        if (earlier.requestHash && !earlier.requestHash.equals(hash)) {
          throw new AppError('idempotency.key_reused', 'This Idempotency-Key was used with a different request', [
            { field: 'Idempotency-Key', message: 'Idempotency-Key was used with a different request body' },
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

  /** Method, path, body and the files' SHA-256, under an HMAC. */
  private requestHash(req: ClaimedRequest): Buffer {
    const uploads = (req as ClaimedRequest & { uploads?: Record<string, { sha256: string }> }).uploads ?? {};
    const files = Object.fromEntries(Object.entries(uploads).map(([field, file]) => [field, file.sha256]));
    return createHmac('sha256', this.hmacKey)
      .update(JSON.stringify([req.method, req.path, req.body ?? null, files]))
      .digest();
  }

  /**
   * A failed handler frees the key (a handler that stored its answer in its transaction and then
   * failed keeps it: release() spares answered keys). An answer not yet stored is stored now; if that
   * fails the client still gets it, and the key stays claimed until its lease runs out.
   */
  private runAndRemember(claim: IdempotencyClaim, res: Response, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) =>
        from(this.keys.release(claim).catch((e: unknown) => this.logger.error({ err: e }, 'could not release an idempotency key'))).pipe(
          switchMap(() => throwError(() => error)),
        ),
      ),
      switchMap((body: unknown) => {
        if (claim.answer) return of(body);
        const stored = this.keys.complete(claim, res.statusCode, body).catch((e: unknown) => {
          this.logger.error({ err: e }, 'could not store the answer of an idempotent request');
        });
        return from(stored).pipe(map(() => body));
      }),
    );
  }
}
