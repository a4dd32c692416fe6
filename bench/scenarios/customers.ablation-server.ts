// Child process entry for `npm run bench -- customers-ablation`: the service built by createApp with
// one part at a time switched off, to see what each part costs per request. The switches patch class
// prototypes and the Express stack from outside; src/ is untouched. Not a supported configuration:
// a measuring instrument only.
import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from '../../src/app.setup.js';
import { RequestQuota } from '../../src/http/rate-limits/request-quota.js';
import { requestIdFor } from '../../src/logging/http-logger.js';
import { createRootLogger } from '../../src/logging/logger.js';
import { loadConfig } from '../../src/config/app.config.js';
import { serveForParent } from '../support/child-server.js';
import type { AblationServerOptions } from './customers-ablation.js';

type Handler = (req: Request, res: Response, next: NextFunction) => void;
type Layer = { handle: Handler };

serveForParent<AblationServerOptions>(async ({ databaseUrl, env, off }) => {
  // The request logger's binding (src/logging/request-logger.ts) is the only user of AsyncLocalStorage in the
  // service: without run() no store is ever entered, so Node never installs its promise hooks.
  if (off.includes('requestContext'))
    AsyncLocalStorage.prototype.run = (_store: unknown, fn: (...args: unknown[]) => unknown, ...args: unknown[]) => fn(...args);
  if (off.includes('rateLimit')) RequestQuota.prototype.admit = () => Promise.resolve();
  const config = loadConfig({
    APP_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    ...env,
    DATABASE_URL: databaseUrl,
  });
  const root = createRootLogger(config.logLevel);
  const app = (await createApp(config, databaseUrl, root)) as NestExpressApplication;
  if (off.includes('accessLog')) replaceHttpLogger(app, root);
  if (off.includes('hotReads')) layerOf(app, 'hotReads').handle = (_req, _res, next) => next();
  if (off.includes('express')) hotReadsBeforeExpress(app);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  return { port: address.port, close: () => app.close() };
});

function layerOf(app: NestExpressApplication, name: string): Layer {
  const stack = (app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } }).router.stack;
  const layer = stack.find((l) => l.handle.name === name);
  if (!layer) throw new Error(`${name} is not in the Express stack`);
  return layer;
}

/** The first middleware of createApp, the HTTP logger; replaced by one that keeps the id and the request logger only. */
function replaceHttpLogger(app: NestExpressApplication, root: Logger): void {
  layerOf(app, 'httpLogger').handle = function httpLogger(req, res, next) {
    req.id = requestIdFor(req, res);
    req.log = root.child({ request_id: req.id });
    next();
  };
}

/**
 * The server calls the middleware a hot read passes (the HTTP logger, the input check, the hot reads)
 * itself, without Express's app.handle and router. The request and response get Express's prototypes
 * and circular references first, as app.handle gives them: the token strategy reads the header with
 * `req.header()`. (Until 2026-11-28 they did not: the dispatch declined every request, which then went
 * through Express as well, so this switch measured both paths.) A request the dispatch declines is
 * answered 500, so the bench's check of the bodies before the load fails if it ever happens.
 */
function hotReadsBeforeExpress(app: NestExpressApplication): void {
  const [logger, refuse, hot] = ['httpLogger', 'refuseUnsafeInput', 'hotReads'].map((name) => layerOf(app, name).handle);
  const server = app.getHttpServer();
  const express = app.getHttpAdapter().getInstance() as ExpressApp;
  server.removeAllListeners('request');
  server.on('request', (req: Request, res: Response) => {
    Object.assign(req, { res });
    Object.assign(res, { req, locals: Object.create(null) as object });
    Object.setPrototypeOf(req, express.request);
    Object.setPrototypeOf(res, express.response);
    logger(req, res, () => refuse(req, res, () => hot(req, res, () => declined(res))));
  });
}

function declined(res: ServerResponse): void {
  res.statusCode = 500;
  res.end('the hot-read dispatch declined a request: this ablation would measure Express too');
}

type ExpressApp = ((req: IncomingMessage, res: ServerResponse) => void) & { request: object; response: object };
