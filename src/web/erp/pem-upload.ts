// The X.509 form's certificate and key as file uploads: a multipart body read with multer into memory
// (small files only), each file taken as the PEM text of its field when it is PEM, else a field error.
// The form is sent by htmx (its CSRF token in a header: the CSRF check runs before any multipart body
// is read), so the answer to a saved form is an HX-Redirect instead of a 303.
import type { Request, Response } from 'express';
import multer from 'multer';
import type { FieldErrors } from '../dunning/dunning-pages.js';
import type { ExceptionPages, Notice } from '../exceptions/exception-pages.js';

/** The file fields and the text field each one fills. */
export const PEM_FILES: Record<string, string> = {
  client_certificate_file: 'client_certificate',
  private_key_file: 'private_key',
};
/** A certificate or key is a few KB; a chain of a handful of certificates stays far below. */
export const PEM_MAX_BYTES = 64 * 1024;
const PEM = /^\s*-----BEGIN [A-Z0-9 ]{3,60}-----[\s\S]+-----END [A-Z0-9 ]{3,60}-----\s*$/;

const parse = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: PEM_MAX_BYTES, files: 2, fields: 40, fieldSize: 300_000 },
}).fields(Object.keys(PEM_FILES).map((name) => ({ name, maxCount: 1 })));

type Files = Record<string, Array<{ buffer: Buffer; size: number }>>;

/** The form's fields: a urlencoded body as parsed, or a multipart body with its PEM files as text fields. */
export async function readConnectionForm(req: Request, res: Response): Promise<{ form: Record<string, unknown>; errors: FieldErrors }> {
  if (!req.is('multipart/form-data')) return { form: (req.body as Record<string, unknown>) ?? {}, errors: {} };
  const errors: FieldErrors = {};
  try {
    await new Promise<void>((resolve, reject) =>
      parse(req, res, (error: unknown) =>
        error ? reject(error instanceof Error ? error : new Error('multipart body not read', { cause: error })) : resolve(),
      ),
    );
  } catch (error) {
    const field = error instanceof multer.MulterError && error.field && PEM_FILES[error.field] ? PEM_FILES[error.field] : '_form';
    errors[field] = error instanceof multer.MulterError && error.code === 'LIMIT_FILE_SIZE' ? 'tooLarge' : 'badUpload';
    return { form: (req.body as Record<string, unknown>) ?? {}, errors };
  }
  const form = { ...((req.body as Record<string, unknown>) ?? {}) };
  const files = (req.files ?? {}) as Files;
  for (const [fileField, textField] of Object.entries(PEM_FILES)) {
    const file = files[fileField]?.[0];
    if (!file || file.size === 0) continue;
    const text = file.buffer.toString('utf8');
    if (PEM.test(text)) form[textField] = text;
    else errors[textField] = 'notPem';
  }
  return { form, errors };
}

/** After a saved form: htmx is told where to go (HX-Redirect), a plain form is redirected (303). */
export function leadTo(frame: ExceptionPages, req: Request, res: Response, path: string, notices: Notice[]): 'redirected' {
  if (req.headers['hx-request'] !== 'true') return frame.redirect(req, res, path, notices);
  req.session.exceptionNotices = notices;
  res.setHeader('HX-Redirect', path);
  res.status(200).end();
  return 'redirected';
}
