// The web app's HTTP middleware, mounted by app.setup.ts: its assets, the browser's way in at `/`, and
// for the web routes only helmet's headers, the session and the CSRF check of every POST.
import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../config/app.config.js';
import { serveAsset } from './assets/web-assets.js';
import { browserElsewhere } from './errors/browser-requests.js';
import { LOGO_PATH, readLogoUpload } from './settings/logo-upload.js';
import { MessagePage } from './views/simple-pages.js';
import { WebPages } from './web-pages.js';
import { ReadReplica } from '../database/sql/read-replica.js';
import { readCookies, securityHeaders, sessionMiddleware } from './web-security.js';
import { WebSessionsRepository } from './web-sessions.repository.js';
import { saveSessionFirst } from './session-saved-first.js';

/** The paths the web app answers (the API lives under /api, /v2, /oauth, /health and `GET /`). */
export const WEB_PATHS = [
  '/sign-in',
  '/sign-out',
  '/language',
  '/dashboard',
  '/customers',
  '/invoices',
  '/dunning',
  '/exceptions',
  '/push',
  '/password-reset',
  '/invitations',
  '/team',
  '/integrations',
  '/settings',
];

export function mountWeb(app: INestApplication, config: AppConfig): void {
  const pages = app.get(WebPages);
  const headers = securityHeaders(config);
  app.use('/assets', headers, (req: Request, res: Response, next: NextFunction) =>
    req.method === 'GET' || req.method === 'HEAD' ? serveAsset(req, res) : next(),
  );
  app.use(browserRoot);
  const session = sessionMiddleware(config, app.get(WebSessionsRepository));
  // A multipart form's `_csrf` is in its body: the logo upload's body is read before the CSRF check.
  app.use(LOGO_PATH, readLogoUpload);
  const savedFirst = saveSessionFirst(app.get(ReadReplica));
  app.use(WEB_PATHS, headers, readCookies, session, savedFirst, (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD' || pages.csrf.validateRequest(req)) return next();
    // A form without a valid token (forged on another site, or expired): refused, nothing changed.
    pages
      .user(req)
      .then((user) => pages.send(res, 403, MessagePage({ page: pages.context(req, res, user), kind: 'forbidden' })))
      .catch(next);
  });
  app.use(browserElsewhere(WEB_PATHS, headers, readCookies, session));
}

/**
 * `GET /` is the API's authentication check. A browser (no Authorization header, asking for HTML) is
 * sent to the dashboard instead; every other caller gets the check exactly as before.
 */
function browserRoot(req: Request, res: Response, next: NextFunction): void {
  const browser = req.headers.authorization === undefined && (req.headers.accept ?? '').includes('text/html');
  if ((req.method === 'GET' || req.method === 'HEAD') && req.path === '/' && browser) return res.redirect(302, '/dashboard');
  next();
}
