// Structured JSON logs with pino. The access line and the error line of a request carry its request id;
// credentials are redacted wherever they might appear.
import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, pino, type Logger, type LoggerOptions } from 'pino';

/** The id the request-id middleware gave this request. */
export const requestIdOf = (req: { id?: unknown }): string | undefined => (req.id === undefined ? undefined : String(req.id));

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.api_token',
  '*.api_key',
  '*.token',
];

/** The service's logger; lines go to stdout unless another destination is given (tests capture them). */
export function createRootLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  } satisfies LoggerOptions;
  return destination ? pino(options, destination) : pino(options);
}

/** Nest's logger interface on top of pino, so framework and application lines share one format. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, rest: unknown[]): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const fields: Record<string, unknown> = context ? { context } : {};
    if (typeof message === 'object' && message !== null && !(message instanceof Error)) {
      const text = typeof rest[0] === 'string' ? (rest.shift() as string) : undefined;
      this.root[level]({ ...fields, ...(message as object) }, text);
      return;
    }
    if (message instanceof Error) fields.err = message;
    const extra = rest.find((r) => r instanceof Error || (typeof r === 'string' && r.includes('\n')));
    if (extra) fields.stack = extra instanceof Error ? extra.stack : extra;
    this.root[level](fields, message instanceof Error ? message.message : String(message));
  }
}
