// Which requests are a browser's, asking for a page rather than for the API: they get the web app's
// HTML error pages, while every API client keeps its problem documents exactly as before.
import express, { type Request, type RequestHandler } from 'express';

/** The API's paths (`GET /`, its authentication check, too): their errors are always problem documents. */
export const API_PREFIXES = ['/api', '/v2', '/oauth', '/health'];

const pathOf = (req: Request): string => (req.originalUrl ?? req.url).split('?')[0];
const under = (path: string, prefixes: readonly string[]) => prefixes.some((p) => path === p || path.startsWith(`${p}/`));

const PAGE_FIRST = ['text/html', 'application/json', 'application/problem+json'];
const JSON_FIRST = ['application/json', 'application/problem+json', 'text/html'];

/**
 * True for a request that should be answered with a page: no Authorization header, not an API path,
 * and an Accept header that prefers HTML — on the web app's own paths any Accept that does not prefer
 * JSON (a link, a form), elsewhere only one that asks for HTML (a browser; curl's *∕* stays JSON).
 */
export function wantsPage(req: Request, webPaths: readonly string[]): boolean {
  if (req.headers.authorization !== undefined) return false;
  const path = pathOf(req);
  if (path === '/' || under(path, API_PREFIXES)) return false;
  return req.accepts(under(path, webPaths) ? PAGE_FIRST : JSON_FIRST) === 'text/html';
}

/**
 * A browser's request outside the web app's paths (an unknown one, which ends at the 404 page) passes
 * `handlers` too — the web app's headers and session — so that the page shows a signed-in user's navigation.
 */
export function browserElsewhere(webPaths: readonly string[], ...handlers: RequestHandler[]): RequestHandler {
  const chain = express.Router();
  chain.use(...handlers);
  return (req, res, next) => {
    if (req.session !== undefined || under(pathOf(req), webPaths) || !wantsPage(req, webPaths)) return next();
    chain(req, res, next);
  };
}
