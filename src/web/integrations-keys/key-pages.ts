// What the API key and OAuth application pages share: the owner-only frame of a handler (a member gets
// the 403 page, a record not found — another company's included — the 404 page, nothing done), a notice
// carried over one redirect, and every key of the company for the list and the expiry banner.
import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ApiKeysService, ApiKeyView } from '../../api-keys/api-keys.service.js';
import type { CompanyContext } from '../../auth/principal.js';
import { AppError } from '../../common/errors.js';
import { MAX_PER_PAGE } from '../../common/pagination.js';
import type { Notice } from '../exceptions/exception-pages.js';
import type { PageContext } from '../views/layout.js';
import { MessagePage } from '../views/simple-pages.js';
import { companyOf, WebPages } from '../web-pages.js';

declare module 'express-session' {
  interface SessionData {
    /** The outcome of the last action on a key page, shown once after its redirect. */
    keyNotice?: Notice;
  }
}

export interface OwnerFrame {
  company: CompanyContext;
  page: PageContext;
}

/** What a handler answers: the status and the page, or that it redirected. */
export type Answer = { status: number; html: JSX.Element } | 'redirected';

@Injectable()
export class KeyPages {
  constructor(private readonly pages: WebPages) {}

  /** Runs `handle` for an owner; anyone else gets what WebPages.owner sends, a record not found the 404 page. */
  async owner(req: Request, res: Response, handle: (frame: OwnerFrame) => Promise<Answer>): Promise<void> {
    const user = await this.pages.owner(req, res);
    if (!user) return;
    const page = this.pages.context(req, res, user);
    try {
      const answer = await handle({ company: companyOf(user), page });
      if (answer !== 'redirected') await this.pages.send(res, answer.status, answer.html);
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return this.pages.send(res, 404, MessagePage({ page, kind: 'notFound' }));
      throw error;
    }
  }

  /** Keeps the notice for the page `path` and sends the browser there (303: the form is not posted again). */
  redirect(req: Request, res: Response, path: string, notice: Notice): 'redirected' {
    req.session.keyNotice = notice;
    res.redirect(303, path);
    return 'redirected';
  }

  /** The notice kept by the last redirect, once, in the page's language. */
  takeNotice(req: Request, page: PageContext): string | undefined {
    const notice = req.session.keyNotice;
    delete req.session.keyNotice;
    return notice && page.lang.t(notice.key, notice.values);
  }
}

/** Every key of the company, oldest first (a company has a handful; the API's pages are read through). */
export async function allKeys(keys: ApiKeysService, company: CompanyContext): Promise<ApiKeyView[]> {
  const all: ApiKeyView[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await keys.list(company, { page, perPage: MAX_PER_PAGE, offset: (page - 1) * MAX_PER_PAGE });
    all.push(...items);
    if (items.length === 0 || all.length >= total) return all;
  }
}

/** The keys that expire within the warning window of the API's rule (status `expiring`). */
export function expiringKeys(keys: ApiKeyView[]): ApiKeyView[] {
  return keys.filter((view) => view.status === 'expiring');
}
