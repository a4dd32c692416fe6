// The problems a PDF upload can answer with, each naming the form field; multer's and busboy's
// errors are translated here so the client never sees a 500 for a bad multipart body.
import multer from 'multer';
import { AppError, type ErrorCode } from '../common/errors.js';

const MIB = 1024 * 1024;

export function megabytes(bytes: number): string {
  return `${Number((bytes / MIB).toFixed(2))} MB`;
}

const fieldError = (code: ErrorCode, field: string, message: string): AppError => new AppError(code, message, [{ field, message }]);

export const notPdf = (field: string): AppError => fieldError('document.not_pdf', field, `${field} is not a PDF file`);

export const tooLarge = (field: string, maxBytes: number): AppError =>
  fieldError('document.too_large', field, `${field} is larger than the limit of ${megabytes(maxBytes)}`);

/** A PDF with active content, refused by the company's policy (shipping setting refuse_active_pdf). */
export const activeContentRefused = (field: string, reason: string): AppError =>
  fieldError(
    'document.active_content',
    field,
    `${field} ${reason}; this company refuses PDFs with active content (shipping setting refuse_active_pdf)`,
  );

export const missingFile = (field: string): AppError => fieldError('document.missing', field, `${field} (a PDF file) is required`);

/** Translates what multer passes to its callback; system errors (disk full, ...) stay internal. */
export function uploadError(error: unknown, acceptedFields: string[], maxBytes: number): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof multer.MulterError) return fromMulter(error, acceptedFields, maxBytes);
  if (error instanceof Error && !('syscall' in error)) {
    // busboy: malformed parts, missing boundary, a body that ends too early; or the client went away.
    return new AppError('request.malformed', `The multipart body could not be read: ${error.message}`);
  }
  return error;
}

function fromMulter(error: multer.MulterError, acceptedFields: string[], maxBytes: number): AppError {
  const field = error.field ?? '';
  // The typings lag behind multer 2.5, which added the nesting, array-index and field-name codes.
  const code: string = error.code;
  switch (code) {
    case 'LIMIT_FILE_SIZE':
      return tooLarge(field, maxBytes);
    case 'LIMIT_UNEXPECTED_FILE':
      return acceptedFields.includes(field)
        ? fieldError('validation.failed', field, `${field} may hold only one file`)
        : fieldError('validation.failed', field, `${field} is not a file field of this request (accepted: ${acceptedFields.join(', ')})`);
    case 'LIMIT_FILE_COUNT':
      return new AppError('validation.failed', `At most ${acceptedFields.length} files may be sent: ${acceptedFields.join(', ')}`);
    case 'LIMIT_FIELD_VALUE':
      return fieldError('validation.failed', field, `${field} is too long`);
    case 'LIMIT_PART_COUNT':
    case 'LIMIT_FIELD_COUNT':
      return new AppError('request.payload_too_large', `The multipart body has too many fields (${error.message})`);
    default:
      return new AppError('request.malformed', `The multipart body is malformed: ${error.message}${field ? ` (${field})` : ''}`);
  }
}
