// The logo upload's multipart body, read before the web app's CSRF check (web.setup.ts), which needs
// the form's `_csrf` field: into memory, one file of at most LOGO_MAX_BYTES. A body multer refuses
// (too large, another field) is noted on the request and answered beside the field, not as a bare error.
import type { Request, RequestHandler } from 'express';
import multer from 'multer';
import { LOGO_MAX_BYTES } from '../../letters/letter-logo.js';

export const LOGO_PATH = '/settings/shipping/logo';

export type LogoUploadRefusal = 'tooLarge' | 'notImage';

export interface LogoUploadRequest extends Request {
  logoRefusal?: LogoUploadRefusal;
}

const parse = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 2, fieldSize: 1024, parts: 3 },
}).single('logo');

/** Mounted at LOGO_PATH; other methods and paths below it pass untouched. */
export const readLogoUpload: RequestHandler = (req, res, next) => {
  if (req.method !== 'POST' || req.path !== '/') return next();
  parse(req, res, (error: unknown) => {
    if (error) {
      const tooLarge = error instanceof multer.MulterError && error.code === 'LIMIT_FILE_SIZE';
      (req as LogoUploadRequest).logoRefusal = tooLarge ? 'tooLarge' : 'notImage';
    }
    next();
  });
};
