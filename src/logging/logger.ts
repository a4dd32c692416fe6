// Structured JSON logs with pino (through nestjs-pino and pino-http, see http-logger.ts). Credentials
// are redacted wherever they might appear.
import { type DestinationStream, pino, type Logger, type LoggerOptions } from 'pino';

/** The id the HTTP logger (http-logger.ts) gave this request. */
export const requestIdOf = (req: { id?: unknown }): string | undefined => (req.id === undefined ? undefined : String(req.id));

const SECRET_FIELDS = ['password', 'client_secret', 'secret', 'api_token', 'api_key', 'token', 'access_token', 'refresh_token', 'authorization', 'cookie'];

/** Censored in every line, at the top level and one level down (a DTO or an options object). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
  // body-parser errors carry the raw body they could not parse
  'err.body',
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
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
