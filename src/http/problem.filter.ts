// Maps every thrown error to a problem document. A database (or store) that cannot be reached is a 503
// with Retry-After: the request was fine and will succeed later. Unknown errors are logged and
// answered with a generic 500.
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError, type ErrorCode } from '../common/errors.js';
import { isDatabaseBusy } from '../database/pg-errors.js';
import { DocumentNotFoundError, DocumentStoreUnavailableError } from '../documents/document-store.js';
import { isDatabaseUnavailable } from '../database/pg-errors.js';
import { requestIdOf } from '../logging/logger.js';
import { type Problem, problem, sendProblem } from '../common/problem.js';

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'request.malformed',
  401: 'auth.missing_credential',
  403: 'auth.forbidden',
  404: 'request.not_found',
  413: 'request.payload_too_large',
  415: 'request.unsupported_media_type',
  422: 'validation.failed',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/** A 503 (overload, a dependency away) is usually over within seconds. */
const RETRY_AFTER_SECONDS = 5;

/** body-parser and multer errors carry a status and a type instead of being HttpExceptions. */
interface ParserError {
  status?: number;
  statusCode?: number;
  type?: string;
  code?: string;
}

export function toProblem(error: unknown): Problem | undefined {
  if (error instanceof AppError) {
    return problem(error.code, error.status, error.message, error.errors, error.extensions);
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = BY_STATUS[status];
    if (!code) return undefined;
    return problem(code, status, httpDetail(error, status));
  }
  if (error instanceof DocumentNotFoundError) {
    return problem('document.not_found', 404, 'The stored file is missing from the document store; the operator has been alerted');
  }
  if (isDatabaseBusy(error)) {
    return problem('database.busy', 503, 'The service is too busy to answer this request now; retry after the time in Retry-After');
  }
  const parser = error as ParserError;
  const status = parser?.status ?? parser?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && BY_STATUS[status]) {
    const detail =
      parser.type === 'entity.parse.failed'
        ? 'The request body could not be parsed'
        : parser.type === 'entity.too.large'
          ? 'The request body is too large'
          : String((error as Error).message ?? 'Bad request');
    return problem(BY_STATUS[status], status, detail);
  }
  return undefined;
}

function httpDetail(error: HttpException, status: number): string {
  if (status === 404) return 'No such resource';
  if (status === 429) return 'Too many requests: slow down and retry after the time in Retry-After';
  if (status === 503) return 'A dependency of the service is not available (see /health/ready)';
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  if (message === undefined || message === null) return error.message;
  return typeof message === 'string' ? message : JSON.stringify(message);
}

@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('Problem');

  catch(error: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    this.answer(error, ctx.getRequest<Request>(), ctx.getResponse<Response>());
  }

  /** Answers the request with the error's problem document (also for the hot reads, which Nest's router does not see). */
  answer(error: unknown, req: Request, res: Response): void {
    const body = this.problemFor(error, res);
    if (res.headersSent) return;
    sendProblem(res, body, requestIdOf(req));
  }

  /** The problem document of an error, logged as it needs, with the headers its status calls for set on `res`. */
  protected problemFor(error: unknown, res: Response): Problem {
    let body = toProblem(error);
    if (error instanceof DocumentNotFoundError) {
      // A row names a file the store no longer has: lost data an operator must restore from a backup.
      this.logger.error({ err: error, key: error.key }, 'document missing from the store');
    }
    if (!body && error instanceof DocumentStoreUnavailableError) {
      this.logger.warn({ error: error.message }, 'the document store is unavailable: answered 503');
      body = problem(
        'service_unavailable',
        503,
        'The service cannot reach its document store right now; retry after the seconds in Retry-After',
      );
    }
    if (!body && isDatabaseUnavailable(error)) {
      // Only the message: a driver error carries the statement's parameters (payloads, secret hashes).
      this.logger.warn({ error: (error as Error).message }, 'a dependency is unavailable: answered 503');
      body = problem('service_unavailable', 503, 'The service cannot reach its database right now; retry after the seconds in Retry-After');
    }
    if (!body) {
      // The line carries request_id through the request's logger (request-logger.ts).
      this.logger.error({ err: error }, 'unhandled error');
      body = problem('internal', 500, 'An internal error occurred; it has been logged with the request id');
    }
    if (body.status === 401 && !res.getHeader('WWW-Authenticate')) {
      res.setHeader('WWW-Authenticate', 'Token realm="api"');
    }
    if (body.status === 503 && !res.getHeader('Retry-After')) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    return body;
  }
}
