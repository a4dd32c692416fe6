// The first middleware of every request: pino-http with the service's request id. It gives the request
// its id (the client's X-Request-ID when it is sane, else a new uuid), echoes it on the response, puts a
// child logger carrying `request_id` on req.log (nestjs-pino binds it to the request's async context,
// so every line written while the request is handled carries the id) and writes one access line when
// the response is finished or the client left.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { type HttpLogger, type Options, pinoHttp } from 'pino-http';
import { serializers } from './logger.js';

const SANE_ID = /^[\w\-.:/@]{1,200}$/;
const SYNTHETIC_ERROR = /^failed with status code \d+$/;

/** The request id for a request: the client's when it is sane, else a fresh uuid; echoed at once. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && SANE_ID.test(sent) ? sent : randomUUID();
  res.setHeader('X-Request-ID', id);
  return id;
}

const levelOf = (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
  error && !SYNTHETIC_ERROR.test(error.message) ? 'error' : res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';

/** The access line of a 5xx: the real error (it has its own line from the problem filter) is not repeated. */
function errorObject(_req: IncomingMessage, res: ServerResponse & { err?: unknown }, error: Error, value: Record<string, unknown>) {
  if (res.err === undefined && SYNTHETIC_ERROR.test(error.message)) return { res: value.res, responseTime: value.responseTime };
  return value;
}

export function createHttpLogger(root: Logger): HttpLogger {
  const options: Options = {
    logger: root,
    genReqId: requestIdFor,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'request_id' },
    wrapSerializers: false,
    serializers,
    customLogLevel: levelOf,
    customSuccessMessage: (req, res) => (!req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted'),
    customErrorMessage: () => 'request completed',
    customErrorObject: errorObject,
  };
  return pinoHttp(options);
}
