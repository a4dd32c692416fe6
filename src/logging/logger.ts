// Structured JSON logs with pino (Nest's Logger through request-logger.ts; the access lines are http-logger.ts's). Credentials
// are redacted wherever they might appear.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DestinationStream, pino, type Logger, type LoggerOptions } from 'pino';
import { CENSOR, censorNestedSecrets, SECRET_FIELDS } from './secret-censor.js';

/** The id the HTTP logger (http-logger.ts) gave this request: always a string. */
export const requestIdOf = (req: { id?: unknown }): string | undefined => (typeof req.id === 'string' ? req.id : undefined);

type Request = IncomingMessage & { id?: unknown; originalUrl?: string };

/** The secret of a password-reset or invitation link (src/web/account) is censored in a logged URL. */
const LINK_TOKEN = /^(\/(?:password-reset|invitations)\/)[A-Za-z0-9_-]{43}(?=[/?#]|$)/;
const loggedUrl = (url: string | undefined) => url?.replace(LINK_TOKEN, `$1${CENSOR}`);

/**
 * A request or response on any line (the access line's, or one a service logs) shows only these: no
 * headers, no bodies, so no credential.
 */
const serializers = {
  req: (req: Request) => ({ id: req.id, method: req.method, url: loggedUrl(req.originalUrl ?? req.url) }),
  res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
};

/** Censored where pino finds them by path: at the top level and on errors. One level down is secret-censor.ts's. */
export const REDACT_PATHS = [
  // body-parser errors carry the raw body they could not parse
  'err.body',
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `err.${field}`),
];

/** The service's logger; lines go to stdout unless another destination is given (tests capture them). */
export function createRootLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers,
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    formatters: { log: censorNestedSecrets },
  } satisfies LoggerOptions;
  return destination ? pino(options, destination) : pino(options);
}
