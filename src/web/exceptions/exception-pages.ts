// What the exception and push pages share: the signed-in frame of a handler (a record not found is the
// 404 page), the web user as actor and credential of what they do, the page number of a list, and a
// notice carried over one redirect (post, redirect, get) in the session.
import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from '../../common/errors.js';
import { parsePageRequest, type PageRequest } from '../../common/pagination.js';
import type { Actor } from '../../invoices/invoices.repository.js';
import { requestIdOf } from '../../logging/logger.js';
import type { Credential } from '../../push/push-document.js';
import type { PageContext } from '../views/layout.js';
import { MessagePage } from '../views/simple-pages.js';
import { WebPages } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';

/** A message for the next page the user sees: a catalogue key, its values, and whether it reports a problem. */
export interface Notice {
  key: string;
  values?: Record<string, string | number>;
  error?: boolean;
}

declare module 'express-session' {
  interface SessionData {
    /** The outcome of the last action on an exception page, shown once after its redirect. */
    exceptionNotices?: Notice[];
  }
}

/** What a handler answers: the status and the page. */
export interface Answer {
  status: number;
  html: JSX.Element;
}

@Injectable()
export class ExceptionPages {
  constructor(readonly pages: WebPages) {}

  /** Runs `handle` for the signed-in user, or sends a signed-out visitor to sign in; a record not found is the 404 page. */
  async run(req: Request, res: Response, handle: (user: SignedInUser, page: PageContext) => Promise<Answer | 'redirected'>): Promise<void> {
    const user = await this.pages.user(req);
    if (!user) return this.pages.signInRedirect(req, res);
    const page = this.pages.context(req, res, user);
    try {
      const answer = await handle(user, page);
      if (answer !== 'redirected') await this.pages.send(res, answer.status, answer.html);
    } catch (error) {
      // Another company's record and one that does not exist: the same page, never a hint.
      if (error instanceof AppError && error.status === 404) return this.pages.send(res, 404, MessagePage({ page, kind: 'notFound' }));
      throw error;
    }
  }

  /** Keeps the notices for the page `path` and sends the browser there (303: the form is not posted again). */
  redirect(req: Request, res: Response, path: string, notices: Notice[]): 'redirected' {
    req.session.exceptionNotices = notices;
    res.redirect(303, path);
    return 'redirected';
  }

  /** The notices kept by the last redirect, once. */
  takeNotices(req: Request): Notice[] {
    const notices = req.session.exceptionNotices ?? [];
    delete req.session.exceptionNotices;
    return notices;
  }
}

export function actorOf(user: SignedInUser): Actor {
  return { type: 'user', id: user.id };
}

/** A web user in the push audit log: who replayed or discarded a document. */
export function credentialOfUser(user: SignedInUser, req: Request): Credential {
  return { type: 'user', id: user.id, requestId: requestIdOf(req as { id?: unknown }) ?? null };
}

/** The list's page (`page=N`, the API's page size); a malformed number is the first page and reported as a bad filter. */
export function pageOf(query: Record<string, unknown>, bad: string[]): PageRequest {
  try {
    return parsePageRequest({ page: query.page });
  } catch {
    bad.push('page');
    return parsePageRequest({});
  }
}

/** A query parameter as one text (a repeated one is not a filter value). */
export function queryText(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A form field as a list of texts (one checkbox or many). */
export function formList(body: Record<string, unknown> | undefined, name: string): unknown[] {
  const value = body?.[name];
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  // qs turns a long list of repeated fields into an object keyed by index.
  return typeof value === 'object' && value !== null ? Object.values(value) : [value];
}

/** The notice of filters left out because they were malformed. */
export function badFilterNotices(bad: string[], key: string): Notice[] {
  return bad.length ? [{ key, values: { fields: bad.join(', ') }, error: true }] : [];
}
