// What every page handler needs: who is signed in (from the session, loaded afresh), the page context
// (language, CSRF token, path) and sending the HTML with the headers of a private page.
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { DoubleCsrfUtilities } from 'csrf-csrf';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { ReadReplica } from '../database/sql/read-replica.js';
import type { CompanyContext } from '../auth/principal.js';
import { isLocale, lang, type Locale } from './i18n.js';
import type { PageContext } from './views/layout.js';
import { MessagePage } from './views/simple-pages.js';
import { csrfProtection, SESSION_COOKIE } from './web-security.js';
import { type SignedInUser, WebUsersRepository } from './web-users.repository.js';

/**
 * The pages a `next` parameter may lead back to after sign-in: a path of the app's own (with its query),
 * never another site (`//host`, `/\\host`) and never the sign-in pages themselves.
 */
const RETURN_PATH = /^\/(?![/\\])(?!sign-)[A-Za-z0-9\-._~/]{0,200}(\?[A-Za-z0-9\-._~=&%+]{0,500})?$/;

export function safeReturnPath(value: unknown): string | undefined {
  return typeof value === 'string' && RETURN_PATH.test(value) ? value : undefined;
}

@Injectable()
export class WebPages {
  readonly csrf: DoubleCsrfUtilities;

  constructor(
    private readonly users: WebUsersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly replica: ReadReplica,
  ) {
    this.csrf = csrfProtection(config);
  }

  /** The signed-in user of the request's session; a session whose user no longer exists is ended. */
  async user(req: Request): Promise<SignedInUser | undefined> {
    const { userId, companyId } = req.session ?? {};
    if (!userId || !companyId) return undefined;
    const user = await this.users.signedIn(companyId, userId);
    if (!user) await destroy(req);
    return user;
  }

  /**
   * The signed-in user of a page only owners may open or post to. A signed-out visitor is sent to sign
   * in and a member gets the 403 page "for owners only"; both answer `undefined`, and nothing is done.
   */
  async owner(req: Request, res: Response): Promise<SignedInUser | undefined> {
    const user = await this.user(req);
    if (!user) {
      this.signInRedirect(req, res);
      return undefined;
    }
    if (user.role === 'owner') return user;
    await this.send(res, 403, MessagePage({ page: this.context(req, res, user), kind: 'ownersOnly' }));
    return undefined;
  }

  /**
   * Runs a page's read-only work on the read replica when one is configured and has replayed this
   * session's last write, else on the primary (src/database/sql/read-replica.ts, session-write-position.ts).
   */
  reads<T>(req: Request, work: () => Promise<T>, canRetry?: () => boolean): Promise<T> {
    return this.replica.reads(req.session?.lastWritePosition, work, canRetry);
  }

  /** Where a signed-out visitor of `path` is sent: the sign-in page, which leads back to it. */
  signInRedirect(req: Request, res: Response): void {
    const cookieSent = (req as { cookies?: Record<string, string> }).cookies?.[SESSION_COOKIE] !== undefined;
    const expired = cookieSent && !req.session?.visitor;
    const next = safeReturnPath(req.originalUrl);
    const query = new URLSearchParams({ ...(next ? { next } : {}), ...(expired ? { reason: 'expired' } : {}) }).toString();
    res.redirect(303, `/sign-in${query ? `?${query}` : ''}`);
  }

  context(req: Request, res: Response, user?: SignedInUser): PageContext {
    const visitorLocale = req.session?.locale;
    const locale: Locale = user?.locale ?? (isLocale(visitorLocale) ? visitorLocale : 'de');
    return {
      lang: lang(locale, user?.timeZone ?? this.config.defaultTimeZone),
      csrf: this.csrf.generateCsrfToken(req, res),
      user: user && { email: user.email, companyName: user.companyName, role: user.role },
      path: req.originalUrl,
    };
  }

  async send(res: Response, status: number, html: JSX.Element): Promise<void> {
    res
      .status(status)
      .type('html')
      .setHeader('Cache-Control', 'no-store')
      .send(await html);
  }
}

export function companyOf(user: SignedInUser): CompanyContext {
  return { id: user.companyId, name: user.companyName, timeZone: user.timeZone };
}

type SessionStep = (done: (error?: unknown) => void) => void;

/** express-session's callback methods as promises. */
function step(run: SessionStep): Promise<void> {
  return new Promise((resolve, reject) =>
    run((error) => (error ? reject(error instanceof Error ? error : new Error('session store failed', { cause: error })) : resolve())),
  );
}

export const regenerate = (req: Request) => step((done) => req.session.regenerate(done));
export const save = (req: Request) => step((done) => req.session.save(done));
export const destroy = (req: Request) => step((done) => req.session.destroy(done));
