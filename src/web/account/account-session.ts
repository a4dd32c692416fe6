// What the account pages keep in the web session: a notice shown once by the next page (after a
// redirect), and signing a session in after a reset or an accepted invitation.
import type { Request } from 'express';
import type { SessionData } from 'express-session';
import { regenerate } from '../web-pages.js';

declare module 'express-session' {
  interface SessionData {
    /** A catalogue key and its values, shown once by the team page. */
    accountNotice?: { key: string; values?: Record<string, string> };
  }
}

/**
 * A fresh session id for the signed-in user (as at sign-in: an id planted before is worth nothing after).
 * The redirect that follows stores it (src/web/session-saved-first.ts).
 */
export async function signInSession(req: Request, companyId: string, userId: string): Promise<void> {
  const locale = req.session.locale;
  await regenerate(req);
  Object.assign(req.session, { userId, companyId, locale });
}

/** A visitor's session carries the CSRF binding of the form (and the language they chose). */
export function markVisitor(req: Request): void {
  if (!req.session.userId) req.session.visitor = true;
}

export function takeNotice(req: Request): SessionData['accountNotice'] {
  const notice = req.session.accountNotice;
  delete req.session.accountNotice;
  return notice;
}
