// What the invoice page's controllers share: the signed-in user (or the way to sign in), the 404 page for
// a record that is not the user's company's, and the notice that follows a change (303, then shown once).
import type { Request, Response } from 'express';
import { AppError } from '../../common/errors.js';
import type { Lang } from '../i18n.js';
import type { PageContext } from '../views/layout.js';
import { MessagePage } from '../views/simple-pages.js';
import { save, type WebPages } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';

declare module 'express-session' {
  interface SessionData {
    /** The notice of the change just made on an invoice page: a catalogue key and its amount. */
    invoiceNotice?: { key: string; amount?: string };
  }
}

/** Runs `handle` for the signed-in user; an unknown record, or another company's, is the 404 page. */
export async function asSignedIn(
  pages: WebPages,
  req: Request,
  res: Response,
  handle: (user: SignedInUser, page: PageContext) => Promise<void>,
): Promise<void> {
  const user = await pages.user(req);
  if (!user) return pages.signInRedirect(req, res);
  const page = pages.context(req, res, user);
  try {
    await handle(user, page);
  } catch (error) {
    // Not found, and a malformed id (which names no record either): the same page, never a hint.
    if (error instanceof AppError && [400, 404].includes(error.status) && !res.headersSent) {
      return pages.send(res, 404, MessagePage({ page, kind: 'notFound' }));
    }
    throw error;
  }
}

/** Back to the invoice page after a change (303: the browser GETs it), where the notice shows once. */
export async function doneRedirect(req: Request, res: Response, invoiceId: string, notice: { key: string; amount?: string }) {
  req.session.invoiceNotice = notice;
  // Saved before the answer: express-session sends a redirect's head while it still saves, and a browser
  // that follows at once would read the session without the notice.
  await save(req);
  res.redirect(303, `/invoices/${invoiceId}`);
}

export function takeNotice(req: Request, lang: Lang): string | undefined {
  const notice = req.session.invoiceNotice;
  if (!notice) return undefined;
  delete req.session.invoiceNotice;
  return lang.t(`invoicePage.notice.${notice.key}`, { amount: notice.amount === undefined ? '' : lang.money(notice.amount) });
}
