// What every dunning page handler shares: the signed-in user (or the way to sign in), the 404 page for
// anything not found (another company's id included), and the API's field errors of a refused form.
import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from '../../common/errors.js';
import type { CompanyContext } from '../../auth/principal.js';
import type { PageContext } from '../views/layout.js';
import { MessagePage } from '../views/simple-pages.js';
import { companyOf, WebPages } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';

export interface Signed {
  user: SignedInUser;
  company: CompanyContext;
  page: PageContext;
}

/** A form field's error, by the field's name as the API reports it (`levels[0][fee]`). */
export type FieldErrors = Record<string, string>;

@Injectable()
export class DunningPages {
  constructor(readonly pages: WebPages) {}

  /** Runs `handle` for the signed-in user; a signed-out visitor is sent to sign in, a record not found gets the 404 page. */
  async signedIn(req: Request, res: Response, handle: (signed: Signed) => Promise<void>): Promise<void> {
    const user = await this.pages.user(req);
    if (!user) return this.pages.signInRedirect(req, res);
    const page = this.pages.context(req, res, user);
    try {
      await handle({ user, company: companyOf(user), page });
    } catch (error) {
      if (error instanceof AppError && error.status === 404) {
        return this.pages.send(res, 404, MessagePage({ page, kind: 'notFound' }));
      }
      throw error;
    }
  }

  send(res: Response, status: number, html: JSX.Element): Promise<void> {
    return this.pages.send(res, status, html);
  }
}

/** The field errors of a refusal the services answer with a 4xx (422 validation, 409 conflict …); others rethrown. */
export function refusalOf(error: unknown): { message: string; fields: FieldErrors; status: number } {
  if (!(error instanceof AppError) || error.status >= 500) throw error;
  const fields: FieldErrors = {};
  for (const detail of error.errors ?? []) fields[detail.field] ??= detail.message;
  return { message: error.message, fields, status: error.status };
}

/** A form value as text ('' when absent or not text). */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A form's repeated field as a list (one value arrives as a string). */
export function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}
