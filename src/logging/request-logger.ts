// What Nest's Logger writes goes through here: while a request is handled, to that request's logger (the
// child carrying request_id that http-logger.ts put on req.log), elsewhere to the root logger.
//
// This was nestjs-pino's work. Its releases for Nest 12 require Node 22.12 or later, while the service
// supports Node 20.19 as well (issue 18), and the service used only this part of it: its own middleware
// already writes the access lines and makes the request's logger.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LoggerService } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

const requestLoggers = new AsyncLocalStorage<Logger>();

/** A stack trace, as Nest's exception handlers pass it to error() after the message. */
const STACK = /\n\s*at /;

/**
 * Binds the request's logger to the rest of its handling. Mounted after the body is read: a callback of
 * the request stream runs outside the store, so binding before the body parsers would lose it.
 */
export function bindRequestLogger(req: Request, _res: Response, next: NextFunction): void {
  if (req.log) requestLoggers.run(req.log, next);
  else next();
}

/** The logger of the request being handled, if any (its lines carry the request_id). */
export function currentRequestLogger(): Logger | undefined {
  return requestLoggers.getStore();
}

/** Nest's LoggerService on pino, with the line shapes nestjs-pino wrote: `context` for Nest's context, `err` for an error. */
export class RequestAwareLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  verbose(message: unknown, ...optional: unknown[]): void {
    this.write('trace', message, optional);
  }

  debug(message: unknown, ...optional: unknown[]): void {
    this.write('debug', message, optional);
  }

  log(message: unknown, ...optional: unknown[]): void {
    this.write('info', message, optional);
  }

  warn(message: unknown, ...optional: unknown[]): void {
    this.write('warn', message, optional);
  }

  error(message: unknown, ...optional: unknown[]): void {
    this.write('error', message, optional);
  }

  fatal(message: unknown, ...optional: unknown[]): void {
    this.write('fatal', message, optional);
  }

  /** Through Reflect.apply: pino's types want a string message, Nest's callers pass anything (as they did to nestjs-pino). */
  private write(level: Level, message: unknown, optional: unknown[]): void {
    const logger = requestLoggers.getStore() ?? this.root;
    const fields: Record<string, unknown> = {};
    // Nest's Logger passes its context last.
    let params = optional;
    if (optional.length > 0) {
      fields.context = optional[optional.length - 1];
      params = optional.slice(0, -1);
    }
    if (typeof message === 'object') {
      if (message instanceof Error) fields.err = message;
      else Object.assign(fields, message);
      Reflect.apply(logger[level], logger, [fields, ...params]);
    } else if (
      level === 'error' &&
      typeof message === 'string' &&
      params.length === 1 &&
      typeof params[0] === 'string' &&
      STACK.test(params[0])
    ) {
      // (message, stack) from an exception handler: one error with that stack, not a message with an argument.
      const err = new Error(message);
      err.stack = params[0];
      logger.error({ ...fields, err });
    } else {
      Reflect.apply(logger[level], logger, [fields, message, ...params]);
    }
  }
}
