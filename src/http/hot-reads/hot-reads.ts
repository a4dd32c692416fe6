// A speed trick, in its own file: the hot reads (src/app.hot-routes.ts: a customer, an invoice, a page of either)
// skip Express's walk over every route and Nest's per-request execution context, guards, pipes and
// passport. Measured (`npm run bench -- customers invoices-read --rounds=3`, Node 20, 2 cores, info
// logging, paired with the commit before; bench/README.md, "Hot reads"): node CPU per customer by id 2.04×
// the minimal server's → 1.55×, per customers page 1.86× → 1.27× (with the contact summaries), per invoice
// by id 0.637 → 0.511 ms.
//
// The rules stay where they are. A request is taken here only in the ordinary case: a GET of a route's
// canonical path (lower case, no trailing slash, an id of plain characters), without a body, with a valid
// REST token (TokenStrategy.validate, the token rule itself) over a transport the credential guard accepts.
// Anything else — no or another credential, a refused token, a locked identifier, HEAD, an unusual path —
// goes on, untouched, to Nest's router, whose guards answer it as before. Once taken, the request spends
// its point of the rate limit (RequestQuota, the guard's rules) and gets what the route's controller
// method returns, as Nest's reply would send it, or its error's problem document (ProblemFilter).
import { Inject, Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { CompanyContext } from '../../auth/principal.js';
import { FailedAuthLimiter } from '../../auth/failed-auth.limiter.js';
import { TokenStrategy } from '../../auth/token.strategy.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { bindRequestLogger } from '../../logging/request-logger.js';
import { ProblemFilter } from '../problem.filter.js';
import { RequestQuota } from '../rate-limits/request-quota.js';

export interface HotRoute {
  /** The collection's path: the route is the collection itself (a page) or one member of it (`<path>/<id>`). */
  path: string;
  member: boolean;
  /** What the route's controller method returns for this request. */
  read(company: CompanyContext, req: Request, id: string): Promise<object>;
}

/** An id as clients send it (`cus-<uuid>`, `inv-<uuid>`); anything else is left to the router. */
const PLAIN_ID = /^[\w-]{1,200}$/;

@Injectable()
export class HotReads {
  /** Requests answered here, not by Nest's router (the tests check that the hot routes are taken). */
  answered = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: TokenStrategy,
    private readonly failedAuth: FailedAuthLimiter,
    private readonly quota: RequestQuota,
  ) {}

  /** The middleware, mounted in front of Nest's router once the app is built (its controllers exist). */
  middleware(routes: HotRoute[]): RequestHandler {
    const problems = new ProblemFilter();
    const serve = async (route: HotRoute, id: string, req: Request, res: Response): Promise<boolean> => {
      // The credential guard's cases other than a valid token (it answers them, and counts failures).
      if ((this.config.env === 'production' && !req.secure) || this.failedAuth.anyOverBudget) return false;
      const principal = await this.tokens.validate(req).catch(() => null);
      if (!principal) return false;
      req.user = principal;
      this.answered++;
      try {
        await this.quota.admit(req, res);
        sendJson(res, await route.read(principal.company, req, id));
      } catch (error) {
        problems.answer(error, req, res);
      }
      return true;
    };
    return function hotReads(req: Request, res: Response, next: NextFunction): void {
      const found = req.method === 'GET' && !unusual(req) ? match(routes, req.url) : undefined;
      if (!found) return next();
      bindRequestLogger(req, res, () => {
        serve(found.route, found.id, req, res).then((served) => served || next(), next);
      });
    };
  }
}

function match(routes: HotRoute[], url: string): { route: HotRoute; id: string } | undefined {
  const end = url.indexOf('?');
  const path = end < 0 ? url : url.slice(0, end);
  for (const route of routes) {
    if (!path.startsWith(route.path)) continue;
    const rest = path.slice(route.path.length);
    if (!route.member && rest === '') return { route, id: '' };
    if (route.member && rest.charCodeAt(0) === 47 /* / */ && PLAIN_ID.test(rest.slice(1))) return { route, id: rest.slice(1) };
  }
  return undefined;
}

/**
 * Left to the router: a body or a Content-Type (the multipart guard refuses a multipart one even when
 * empty), and a conditional request (Express answers `If-None-Match: *` with a 304).
 */
function unusual(req: Request): boolean {
  const { headers } = req;
  return (
    headers['content-length'] !== undefined ||
    headers['transfer-encoding'] !== undefined ||
    headers['content-type'] !== undefined ||
    headers['if-none-match'] !== undefined ||
    headers['if-modified-since'] !== undefined
  );
}

/**
 * The bytes and headers of Nest's reply (`res.json`: Content-Type with charset, Content-Length), without
 * Express's copy of every body over 1,000 characters into a Buffer before writing it.
 */
function sendJson(res: Response, value: object): void {
  const body = JSON.stringify(value);
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  res.end(body);
}
