// What the ERP pages share beyond the exception pages' frame (ExceptionPages: signed-in user, the 404 page,
// notices across a redirect): the owner-only frame, and the API's field errors placed beside the form's fields.
import type { Request, Response } from 'express';
import type { FieldErrors } from '../dunning/dunning-pages.js';
import type { Answer, ExceptionPages } from '../exceptions/exception-pages.js';
import type { PageContext } from '../views/layout.js';
import type { SignedInUser } from '../web-users.repository.js';

type Handler = (user: SignedInUser, page: PageContext) => Promise<Answer | 'redirected'>;

/** `handle` for an owner; a member gets the 403 page "for owners only" and nothing is done (WebPages.owner). */
export async function asOwner(frame: ExceptionPages, req: Request, res: Response, handle: Handler): Promise<void> {
  const owner = await frame.pages.owner(req, res);
  if (!owner) return;
  await frame.run(req, res, (_user, page) => handle(owner, page));
}

/** The form's fields by name; an error on a field the form does not show goes to the form's own message. */
const FORM_FIELDS = new Set([
  'name',
  'base_url',
  'odata_version',
  'sap_client',
  'token_url',
  'client_id',
  'client_secret',
  'token_endpoint_auth_method',
  'oauth_scope',
  'username',
  'password',
  'client_certificate',
  'private_key',
  'private_key_passphrase',
  'ca_certificates',
  'schedule',
  'enabled',
  'entities',
  'fetch_invoice_pdfs',
  'currency',
  'page_size',
  'service_paths[customers]',
  'service_paths[receivables]',
  'mapping',
]);

/** The API's field errors by the form's field names: the mapping's nested fields beside the mapping, the rest on the form. */
export function formErrors(fields: FieldErrors, message: string): FieldErrors {
  const errors: FieldErrors = {};
  const add = (name: string, text: string) => (errors[name] = errors[name] ? `${errors[name]} ${text}` : text);
  for (const [field, text] of Object.entries(fields)) {
    const name = field.startsWith('mapping') ? 'mapping' : field.replace(/^entities\[\d+\]$/, 'entities');
    add(FORM_FIELDS.has(name) ? name : '_form', text);
  }
  if (Object.keys(errors).length === 0) errors._form = message;
  return errors;
}
