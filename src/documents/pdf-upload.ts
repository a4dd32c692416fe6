// PDF uploads for a route: `@PdfUploadInterceptor([{ name: 'invoice', required: true }])` parses the
// multipart body with multer into checked temp files on `req.uploads`, removed when the response closes.
import {
  applyDecorators,
  type CallHandler,
  createParamDecorator,
  type ExecutionContext,
  Inject,
  Injectable,
  mixin,
  type NestInterceptor,
  type OnModuleDestroy,
  type Type,
  UseInterceptors,
} from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import type { Observable } from 'rxjs';
import { ReadsMultipart } from '../common/multipart.guard.js';
import { AppError } from '../common/errors.js';
import { inputError, inputProblem } from '../common/input-rules.js';
import { DOCUMENTS_CONFIG, type DocumentsConfig } from '../config/documents.config.js';
import { DOCUMENT_FILE_MODE } from './local-document-store.js';
import { missingFile, notPdf, uploadError } from './pdf-upload-errors.js';
import { type ActiveContent, inspectPdfFile, NotPdf } from './pdf-inspection.js';
import type { FileEnds } from './pdf-xref.js';
import { PdfTempStorage, type StoredUpload } from './pdf-temp-storage.js';

export { removeTempFiles, type StoredUpload } from './pdf-temp-storage.js';

export interface PdfField {
  name: string;
  required?: boolean;
}

/** Field name → its one checked upload. */
export type UploadedPdfs = Partial<Record<string, StoredUpload>>;

export type UploadRequest = Request & { uploads?: UploadedPdfs };

const MIB = 1024 * 1024;

/** Text fields of a multipart form: generous for nested customer[...] / contact[...] data, still bounded. */
const FORM_LIMITS = {
  fields: 200,
  fieldSize: 64 * 1024,
  fieldNameSize: 200,
  fieldNestingDepth: 2,
  fieldArrayIndexLimit: 100,
  headerPairs: 100,
};

/** The request's uploads (empty when none), for handlers: `@Uploads() uploads: InvoiceUploads`. */
export const Uploads = createParamDecorator((_data: unknown, ctx: ExecutionContext): UploadedPdfs => {
  return ctx.switchToHttp().getRequest<UploadRequest>().uploads ?? {};
});

/** A real parse, beyond the magic bytes (pdf-inspection.ts); answers the file's active content. */
export async function assertRealPdf(path: string, field = 'file', ends?: FileEnds): Promise<ActiveContent> {
  try {
    return await inspectPdfFile(path, ends);
  } catch (error) {
    throw error instanceof NotPdf ? notPdf(field) : error;
  }
}

export function PdfUploadInterceptor(fields: PdfField[]): MethodDecorator & ClassDecorator {
  return applyDecorators(ReadsMultipart(), UseInterceptors(pdfUploadInterceptorType(fields)));
}

function pdfUploadInterceptorType(fields: PdfField[]): Type<NestInterceptor> {
  const names = fields.map((field) => field.name);

  @Injectable()
  class PdfUploadMixin implements NestInterceptor, OnModuleDestroy {
    private readonly storage: PdfTempStorage;
    private readonly parse: RequestHandler;
    private readonly maxBytes: number;

    constructor(@Inject(DOCUMENTS_CONFIG) config: DocumentsConfig) {
      this.maxBytes = Math.floor(config.maxUploadMb * MIB);
      // The local store takes uploads over by renaming them: they are made durable while still open.
      const durable = config.kind === 'local' ? { fileMode: DOCUMENT_FILE_MODE } : undefined;
      this.storage = new PdfTempStorage({ dir: config.uploadDir, maxBytes: this.maxBytes, durable });
      const limits = { ...FORM_LIMITS, fileSize: this.maxBytes, files: names.length, parts: FORM_LIMITS.fields + names.length };
      this.parse = multer({ storage: this.storage, limits }).fields(names.map((name) => ({ name, maxCount: 1 })));
    }

    async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const req = context.switchToHttp().getRequest<UploadRequest>();
      const res = context.switchToHttp().getResponse<Response>();
      if (!req.is('multipart/form-data')) {
        const what = fields.find((field) => field.required)?.name ?? names[0];
        throw new AppError(
          'request.unsupported_media_type',
          `This request takes multipart/form-data: the ${what} PDF with the text fields`,
          [{ field: what, message: `${what} is sent as a file part of a multipart/form-data body` }],
        );
      }
      // 'close' comes on success, on error and when the client goes away: every temp file goes.
      res.once('close', () => void this.storage.discard(req));
      await new Promise<void>((resolve, reject) => {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- multer passes on whatever busboy or the storage failed with; uploadError maps the known kinds and leaves the rest as it came
        this.parse(req, res, (error?: unknown) => (error ? reject(uploadError(error, names, this.maxBytes)) : resolve()));
      });
      // The form's text fields under the service's one input rule (JSON and form bodies meet it in app.setup).
      const problem = inputProblem(req.body, 'body');
      if (problem) throw inputError(problem, 'body');
      const uploads = uploadsOf(req);
      req.uploads = uploads;
      const missing = fields.find((field) => field.required && !uploads[field.name]);
      if (missing) throw missingFile(missing.name);
      // One after the other, so that a file judged by the full parse is the only one in memory.
      for (const upload of Object.values(uploads))
        if (upload) upload.activeContent = await assertRealPdf(upload.path, upload.fieldname, upload.ends);
      return next.handle();
    }

    /** Requests still running at shutdown never see 'close'. */
    async onModuleDestroy(): Promise<void> {
      await this.storage.discardAll();
    }
  }
  return mixin(PdfUploadMixin);
}

function uploadsOf(req: Request): UploadedPdfs {
  // multer merges what PdfTempStorage returned into each file entry.
  const files = (req.files ?? {}) as Record<string, Array<Express.Multer.File & StoredUpload>>;
  const uploads: UploadedPdfs = {};
  for (const [field, [file]] of Object.entries(files)) {
    uploads[field] = {
      fieldname: file.fieldname,
      originalname: file.originalname,
      path: file.path,
      size: file.size,
      sha256: file.sha256,
      durable: file.durable,
      ends: file.ends,
    };
  }
  return uploads;
}
