// The web app's protections, one place: the session cookie and store, CSRF tokens (csrf-csrf, double
// submit bound to the session id), and helmet's headers with a CSP that allows no inline script.
import type { RequestHandler } from 'express';
import session from 'express-session';
import { createHmac, randomBytes } from 'node:crypto';
import { doubleCsrf, type DoubleCsrfUtilities } from 'csrf-csrf';
import helmet from 'helmet';
import type { AppConfig } from '../config/app.config.js';
import { PostgresSessionStore } from './session-store.js';
import type { WebSessionsRepository } from './web-sessions.repository.js';

declare module 'express-session' {
  interface SessionData {
    userId?: string;
    companyId?: string;
    /** A visitor who opened the sign-in page (their session carries the CSRF binding and the language). */
    visitor?: boolean;
    locale?: string;
  }
}

export const SESSION_COOKIE = 'rs.sid';

/** A key for one purpose, derived from SECRETS_KEY; without one (development, tests), random per process. */
function secretFor(config: AppConfig, purpose: string): string {
  if (!config.secretsKey) return randomBytes(32).toString('base64url');
  return createHmac('sha256', config.secretsKey).update(`web:${purpose}`).digest('base64url');
}

export function sessionMiddleware(config: AppConfig, sessions: WebSessionsRepository): RequestHandler {
  const idleMs = config.webSessionIdleMinutes * 60_000;
  return session({
    name: SESSION_COOKIE,
    secret: secretFor(config, 'session'),
    store: new PostgresSessionStore(sessions, idleMs),
    resave: false,
    saveUninitialized: false,
    // Each request moves the expiry on: the session ends after idleMs without one.
    rolling: true,
    cookie: { httpOnly: true, sameSite: 'lax', secure: config.env === 'production', maxAge: idleMs, path: '/' },
  });
}

export function csrfProtection(config: AppConfig): DoubleCsrfUtilities {
  const production = config.env === 'production';
  const secret = secretFor(config, 'csrf');
  return doubleCsrf({
    getSecret: () => secret,
    getSessionIdentifier: (req) => req.sessionID ?? '',
    cookieName: production ? '__Host-rs.csrf' : 'rs.csrf',
    cookieOptions: { sameSite: 'lax', secure: production, httpOnly: true, path: '/' },
    getCsrfTokenFromRequest: (req) => {
      const field = (req.body as Record<string, unknown> | undefined)?._csrf;
      return typeof field === 'string' ? field : req.header('x-csrf-token');
    },
  });
}

/** helmet's headers; scripts and styles only from our own origin, never inline; no framing. */
export function securityHeaders(config: AppConfig): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.env === 'production' ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS is set for every answer over HTTPS in app.setup.ts already.
    strictTransportSecurity: false,
  });
}

/** Cookies of the request as req.cookies (what csrf-csrf reads), without another dependency. */
export const readCookies: RequestHandler = (req, _res, next) => {
  const cookies: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    let value = part.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // A value that is not percent-encoded stays as it came.
    }
    if (name && !(name in cookies)) cookies[name] = value;
  }
  (req as { cookies?: Record<string, string> }).cookies = cookies;
  next();
};
