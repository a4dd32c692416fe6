// Gives every request an id (the client's X-Request-ID when it is sane, else a new one), echoes it on
// the response, runs the rest of the request inside its log context, and writes one access log line.
import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { requestContext } from './logger.js';

const SANE_ID = /^[\w\-.:/@]{1,200}$/;

export function requestIdMiddleware(root: Logger) {
  const access = pinoHttp({
    logger: root,
    genReqId: (req) => (req as Request).id as string,
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    quietReqLogger: true,
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const sent = req.header('x-request-id');
    const id = sent && SANE_ID.test(sent) ? sent : randomUUID();
    req.id = id;
    res.setHeader('X-Request-ID', id);
    requestContext.run({ requestId: id }, () => access(req, res, next));
  };
}
