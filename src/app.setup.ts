// Builds the HTTP application the same way for the server, the tests and the benchmark.
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { readFileSync } from 'node:fs';
import type { ServerOptions } from 'node:https';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import { hotRoutes } from './app.hot-routes.js';
import type { AppConfig } from './config/app.config.js';
import { AppExpressAdapter } from './common/express-adapter.js';
import { HotReads } from './http/hot-reads/hot-reads.js';
import { toProblem } from './http/problem.filter.js';
import { problem, sendProblem } from './common/problem.js';
import { createValidationPipe } from './common/validation.js';
import { inputError, inputProblem, type InputKind, pathError } from './common/input-rules.js';
import { createHttpLogger } from './logging/http-logger.js';
import { createRootLogger, requestIdOf } from './logging/logger.js';
import { setLibraryLogger } from './logging/library-output.js';
import { bindRequestLogger, RequestAwareLogger } from './logging/request-logger.js';
import { createOpenApiDocument } from './openapi/document.js';
import { LIST_PATHS } from './web/invoices/invoice-list.query.js';
import { mountWeb } from './web/web.setup.js';

/** TLS 1.2 at least; for 1.2 only ECDHE suites with AES-GCM or ChaCha20 (SHA-256 or better). */
const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

export async function createApp(config: AppConfig, databaseUrl: string, logger?: Logger): Promise<INestApplication> {
  const root = logger ?? createRootLogger(config.logLevel);
  setLibraryLogger(root);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, databaseUrl), new AppExpressAdapter(), {
    bodyParser: false,
    // Lines written while the modules are built wait for the pino logger instead of going to the console.
    bufferLogs: true,
    httpsOptions: config.tls && tlsOptions(config.tls),
  });
  app.useLogger(new RequestAwareLogger(root));
  app.getHttpServer().keepAliveTimeout = config.httpKeepAliveSeconds * 1000;
  app.disable('x-powered-by');
  // No ETag: the interface has no conditional requests, and hashing every response body is work no client uses.
  app.set('etag', false);
  app.set('trust proxy', config.trustedProxies.length > 0 ? config.trustedProxies : false);
  // First of all: the request id and the request's logger, so even a 415 or a 400 carries them.
  app.use(createHttpLogger(root));
  app.use(bodyReader(config));
  app.use(refuseUnsafeInput);
  if (config.tls || config.trustedProxies.length > 0) app.use(strictTransportSecurity);
  // The most polled API reads, answered without Nest's router when nothing is unusual (src/http/hot-reads).
  app.use(app.get(HotReads).middleware(hotRoutes(app)));
  // The accountants' web app: its assets, sessions, CSRF check and security headers (src/web).
  mountWeb(app, config);
  // Last of the middleware, once the body is read: from here on Nest's Logger writes to the request's logger.
  app.use(bindRequestLogger);
  app.useGlobalPipes(createValidationPipe());
  // No enableShutdownHooks(): src/main.ts owns SIGTERM/SIGINT. With both, Nest's handler closed the app a
  // second time next to main's and then re-raised the signal, killing the process before the database stopped.
  setupOpenApi(app);
  return app;
}

/** Bytes of a POST /v2/documents body: the base64 of the largest PDF plus room for the other fields. */
export function pushBodyLimit(config: AppConfig): number {
  return Math.ceil((config.documents.maxUploadMb * 1024 * 1024 * 4) / 3) + config.maxBodyKb * 1024;
}

function tlsOptions(tls: { certFile: string; keyFile: string }): object {
  const options: ServerOptions = {
    cert: readFileSync(tls.certFile),
    key: readFileSync(tls.keyFile),
    minVersion: 'TLSv1.2',
    ciphers: TLS12_CIPHERS,
    honorCipherOrder: true,
  };
  return options;
}

/**
 * Reads JSON and form bodies (multipart is read by the routes that take uploads). A request without a
 * body (no Content-Length, no Transfer-Encoding: most are GETs) skips the parsers' checks altogether.
 */
function bodyReader(config: AppConfig): RequestHandler {
  const limit = `${config.maxBodyKb}kb`;
  const json = ['application/json', 'application/*+json'];
  const parsers = express.Router();
  parsers.use(refuseUnknownBodyTypes);
  // A pushed invoice carries its PDF as base64 (a third larger): up to MAX_UPLOAD_MB of PDF on this route only.
  parsers.use('/v2/documents', withProblemErrors(express.json({ limit: pushBodyLimit(config), type: json })));
  parsers.use(withProblemErrors(express.json({ limit, type: json })));
  parsers.use(withProblemErrors(express.urlencoded({ limit, extended: true, parameterLimit: 1000 })));
  return (req, res, next) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
    parsers(req, res, next);
  };
}

/** A body of a type the service does not read is a 415, not an empty body that fails validation. */
function refuseUnknownBodyTypes(req: Request, res: Response, next: NextFunction): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (hasBody && !BODY_TYPES.includes(type) && !type.endsWith('+json')) {
    sendProblem(
      res,
      problem('request.unsupported_media_type', 415, `Content-Type "${type || 'none'}" is not accepted; send JSON, a form or multipart`),
      requestIdOf(req),
    );
    return;
  }
  next();
}

/**
 * HSTS on every answer over HTTPS (served here, or by a trusted proxy that says so in X-Forwarded-Proto):
 * browsers then never try the service over plain HTTP, where credentials are refused anyway.
 */
function strictTransportSecurity(req: Request, res: Response, next: NextFunction): void {
  if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  next();
}

/**
 * Path, query and (JSON or form) body under the one input rule of src/common/input-rules.ts. The invoice
 * list's query is left to its own parser, which shows a bad search on the page (the same rule, as a notice).
 */
function refuseUnsafeInput(req: Request, res: Response, next: NextFunction): void {
  const url = req.url;
  const query = url.indexOf('?');
  const error =
    (url.includes('%') ? pathError(query < 0 ? url : url.slice(0, query)) : null) ??
    (query >= 0 && !LIST_PATHS.includes(req.path.replace(/(.)\/$/, '$1')) ? problemOf(req.query, 'query') : null) ??
    (typeof req.body === 'object' && req.body !== null ? problemOf(req.body, 'body') : null);
  if (!error) return next();
  sendProblem(res, toProblem(error)!, requestIdOf(req));
}

function problemOf(value: unknown, kind: InputKind) {
  const problem = inputProblem(value, kind);
  return problem ? inputError(problem, kind) : null;
}

/** Body parser failures (malformed JSON, too large) answered as problem documents. */
function withProblemErrors(parser: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parser(req, res, (error?: unknown) => {
      if (!error) return next();
      const body = toProblem(error) ?? problem('request.malformed', 400, 'The request body could not be read');
      sendProblem(res, body, requestIdOf(req));
    });
}

function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('api/docs', app, createOpenApiDocument(app), { jsonDocumentUrl: 'api/docs-json' });
}
