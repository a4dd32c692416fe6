// Reads the body of POST /v2/documents: one JSON object, validated with the class of its
// document_type, normalized (amounts "119.50", dates YYYY-MM-DD, unknown fields dropped) and hashed,
// so that an identical re-push is recognised whatever the key order or number format.
import { stripProtoKeys } from '@nestjs/common/utils/strip-proto-keys.util.js';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { createHash } from 'node:crypto';
import { loadPdf } from '../../documents/pdf-load.js';
import { AppError, validationFailed } from '../../common/errors.js';
import { type ActiveContent, inspectPdfBytes } from '../../documents/pdf-inspection.js';
import { Decimal } from '../../common/money.js';
import { resolveTerms } from '../../invoices/invoice-terms.js';
import { flattenValidationErrors } from '../../common/validation.js';
import { assertSupplyAgrees } from './pushed-supply.js';
import { DOCUMENT_CLASSES, DOCUMENT_TYPES, type DocumentType, PushDocumentBaseDto } from '../dto/push-document.dto.js';

export interface PushInput {
  documentType: DocumentType;
  externalId: string;
  /** Everything but document_type and external_id, normalized. */
  payload: Record<string, unknown>;
  payloadHash: Buffer;
  /** What makes the pushed PDF active ("contains JavaScript (/OpenAction)"); null without one or a PDF. */
  pdfActiveContent: ActiveContent;
}

const OPTIONS = { whitelist: true, forbidUnknownValues: false, validationError: { target: false, value: false } };

/** `maxPdfBytes`: MAX_UPLOAD_MB, as for uploaded invoice PDFs. */
export async function readPushDocument(body: unknown, maxPdfBytes: number): Promise<PushInput> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationFailed([{ field: 'body', message: 'the body must be one JSON object (a document)' }]);
  }
  const raw = body as Record<string, unknown>;
  const type = raw.document_type;
  const known = typeof type === 'string' && (DOCUMENT_TYPES as readonly string[]).includes(type);
  const cls = known ? DOCUMENT_CLASSES[type as DocumentType] : PushDocumentBaseDto;
  // What the global ValidationPipe does before class-transformer, which this body bypasses: class-transformer
  // takes a nested object's `constructor` key for its class (`{"x":{"constructor":"a"}}` was a TypeError, a 500).
  stripProtoKeys(raw);
  const dto = plainToInstance(cls as new () => object, raw);
  const errors = flattenValidationErrors(await validate(dto, OPTIONS));
  if (errors.length) throw validationFailed(errors);
  const { document_type, external_id, ...rest } = normalize(dto) as Record<string, unknown>;
  if (document_type === 'invoice') {
    assertTermsAgree(rest);
    assertSupplyAgrees(rest);
  }
  if (document_type === 'customer') delete rest.amount; // the integration guide's body always has one; a customer has none
  const pdfActiveContent = typeof rest.pdf === 'string' ? await assertPdf(rest.pdf, maxPdfBytes) : null;
  return {
    documentType: document_type as DocumentType,
    externalId: external_id as string,
    payload: rest,
    payloadHash: createHash('sha256')
      .update(canonicalJson({ document_type, external_id: (external_id as string).toLowerCase(), ...rest }))
      .digest(),
    pdfActiveContent,
  };
}

/** Plain JSON: Decimals as fixed two-decimal strings, absent fields dropped. */
function normalize(value: unknown): unknown {
  if (value instanceof Decimal) return value.toFixed(2);
  if (Array.isArray(value)) return value.map(normalize);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) if (inner !== undefined) out[key] = normalize(inner);
    return out;
  }
  return value;
}

/** JSON with sorted keys: the same document always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What can be told without the database is told now, as a 422: an invoice date with a due date before
 * it, or a time for payment that contradicts both dates. Without an invoice date the invoice's stored
 * one (or the processing day) counts, so that case is checked by processing (dead-lettered at once).
 */
function assertTermsAgree(payload: Record<string, unknown>): void {
  const {
    invoice_date: invoiceDate,
    due_date: dueDate,
    time_for_payment: timeForPayment,
  } = payload as {
    invoice_date?: string | null;
    due_date?: string | null;
    time_for_payment?: number | null;
  };
  if (invoiceDate == null || dueDate == null) return;
  const { errors } = resolveTerms({ invoiceDate, dueDate, timeForPayment: timeForPayment ?? null }, invoiceDate);
  if (errors.length) throw validationFailed(errors);
}

/** Like an upload: at most MAX_UPLOAD_MB, the PDF header in the first KiB and a parse; answers its active content. */
async function assertPdf(base64: string, maxBytes: number): Promise<ActiveContent> {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > maxBytes) {
    throw new AppError('document.too_large', `pdf is larger than ${Math.round(maxBytes / 1048576)} MB`, [
      { field: 'pdf', message: `pdf has ${bytes.length} bytes; at most ${maxBytes} are accepted` },
    ]);
  }
  const head = bytes.subarray(0, 1024);
  const fail = () => validationFailed([{ field: 'pdf', message: 'pdf is not a PDF file' }]);
  if (!head.includes(Buffer.from('%PDF-'))) throw fail();
  const document = await loadPdf(bytes, 'a pushed PDF', { updateMetadata: false }).catch(() => {
    throw fail();
  });
  // The structure reader walks the buffer (a few KiB of parsing); the parsed document is its fallback.
  return inspectPdfBytes(bytes, document);
}
