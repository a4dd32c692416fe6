// The wire JSON of a pushed document and of an audit log entry, and their schemas. The payload is
// shown as received (normalized), without the base64 PDF, which is summarized by its size.
import type { AuthScheme } from '../../auth/principal.js';
import { formatDateTime } from '../../common/dates.js';
import { type IdPrefix, toPublicId } from '../../common/ids.js';
import { PageMetaSchema } from '../../openapi/pagination.schema.js';
import { dateTimeProperty, enumProperty, freeObjectProperty, idProperty, integerProperty, textProperty } from '../../openapi/properties.js';
import { arrayOf, component, type Wire, wrapped } from '../../openapi/schema.js';
import { DOCUMENT_TYPES } from '../dto/push-document.dto.js';
import { AUDIT_STEPS, type AuditEntry, DOCUMENT_STATUSES, type PushDocument, type ResultType } from '../push-document.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export const PushDocumentResultSchema = component(
  'PushDocumentResult',
  {
    type: {
      type: 'string',
      enum: ['invoice', 'payment', 'credit', 'customer'],
      description: '`credit`: a credit memo, booked as a credit entry (`pay-…`) on its invoice',
    },
    id: { type: 'string', pattern: `^(inv|pay|cus)-${UUID}$`, example: 'inv-3f2b8c1e-6a4d-4e0b-9c57-2d8e1f0a7b64' },
  },
  { description: 'The record the document produced' },
);

export const PushDocumentSchema = component(
  'PushDocument',
  {
    id: idProperty('doc', 'Service id of the document'),
    document_type: { type: 'string', enum: DOCUMENT_TYPES },
    external_id: textProperty({ example: 'RE-2026-0042', description: 'The client’s id of the document (case-insensitive)' }),
    version: integerProperty({
      minimum: 1,
      example: 1,
      description: '1, 2, … per (document_type, external_id): changed documents are applied in this order',
    }),
    status: { type: 'string', enum: DOCUMENT_STATUSES, description: '`failed`: an attempt failed and a retry is scheduled' },
    attempts: integerProperty({ minimum: 0, example: 1, description: 'Processing attempts so far' }),
    last_error: textProperty({
      nullable: true,
      example: 'invoice.not_found: No invoice with external_id "RE-1" (yet): push the invoice first',
      description: 'The error of the last failed attempt',
    }),
    outcome: enumProperty(['applied', 'unchanged', 'superseded'], {
      nullable: true,
      description: '`unchanged`: the record was in that state already; `superseded`: a later version had been applied',
    }),
    result: wrapped(PushDocumentResultSchema, { nullable: true }),
    payload: freeObjectProperty({ description: 'The document as received (normalized); a PDF is shown as `{"bytes": <size>}`' }),
    discard_reason: textProperty({ nullable: true, description: 'Why the dead letter was discarded' }),
    received_at: dateTimeProperty(),
    processed_at: dateTimeProperty({ nullable: true }),
    dead_lettered_at: dateTimeProperty({ nullable: true }),
    updated_at: dateTimeProperty(),
  },
  { description: 'A pushed document and where it is in processing' },
);

export const PushDocumentResponseSchema = component('PushDocumentResponse', { document: PushDocumentSchema });

export const PushDocumentListSchema = component('PushDocumentList', { documents: arrayOf(PushDocumentSchema), meta: PageMetaSchema });

export const DeadLetterListSchema = component(
  'DeadLetterList',
  { dead_letters: arrayOf(PushDocumentSchema), meta: PageMetaSchema },
  { description: 'Documents whose every attempt failed (status dead_lettered), oldest first' },
);

export const AuditCredentialSchema = component(
  'AuditCredential',
  {
    type: { type: 'string', enum: ['apikey', 'bearer', 'token', 'user'] },
    id: {
      type: 'string',
      nullable: true,
      pattern: `^(key|oat|tok|usr)-${UUID}$`,
      description: '`key-…` API key, `oat-…` OAuth access token, `tok-…` REST API token, `usr-…` a user of the web front end',
    },
  },
  { description: 'Who caused the step: the credential of the push, or of the replay or discard (an API credential or a web user)' },
);

export const AuditEntrySchema = component(
  'AuditEntry',
  {
    id: { type: 'string', pattern: '^\\d+$', example: '4711', description: 'Increasing in the order the steps happened' },
    document_id: idProperty('doc', 'The document'),
    document_type: { type: 'string', enum: DOCUMENT_TYPES },
    external_id: textProperty({ example: 'RE-2026-0042' }),
    step: { type: 'string', enum: AUDIT_STEPS },
    attempt: integerProperty({ minimum: 1, nullable: true, description: 'The attempt the step belongs to' }),
    error: textProperty({ nullable: true, description: 'The error of a failed attempt' }),
    details: freeObjectProperty({ nullable: true, description: 'e.g. `{"outcome": "applied", …}`, `{"reason": …}`, `{"notes": […]}`' }),
    credential: wrapped(AuditCredentialSchema, { nullable: true }),
    request_id: textProperty({ nullable: true, description: 'The X-Request-ID of the request that caused the step' }),
    created_at: dateTimeProperty(),
  },
  { description: 'One step of one pushed document; the log is append-only' },
);

export const AuditLogSchema = component('AuditLog', { audit_log: arrayOf(AuditEntrySchema), meta: PageMetaSchema });

const RESULT_PREFIX: Record<ResultType, IdPrefix> = { invoice: 'inv', payment: 'pay', credit: 'pay', customer: 'cus' };

/** Credential ids in the audit log carry the prefix of their kind. */
const CREDENTIAL_PREFIX: Record<string, string> = { apikey: 'key', token: 'tok', bearer: 'oat', user: 'usr' };

export function serializeDocument(doc: PushDocument, timeZone: string): Wire<typeof PushDocumentSchema> {
  const { pdf, ...payload } = doc.payload;
  const pdfBytes = typeof pdf === 'string' ? Buffer.byteLength(pdf, 'base64') : doc.pdfBytes;
  return {
    id: toPublicId('doc', doc.id),
    document_type: doc.documentType,
    external_id: doc.externalId,
    version: doc.version,
    status: doc.status,
    attempts: doc.attempts,
    last_error: doc.lastError,
    outcome: doc.outcome,
    result: doc.resultType && doc.resultId ? { type: doc.resultType, id: toPublicId(RESULT_PREFIX[doc.resultType], doc.resultId) } : null,
    payload: pdfBytes != null ? { ...payload, pdf: { bytes: pdfBytes } } : payload,
    discard_reason: doc.discardReason,
    received_at: formatDateTime(doc.receivedAt, timeZone),
    processed_at: formatDateTime(doc.processedAt, timeZone),
    dead_lettered_at: formatDateTime(doc.deadLetteredAt, timeZone),
    updated_at: formatDateTime(doc.updatedAt, timeZone),
  };
}

export function serializeAuditEntry(entry: AuditEntry, timeZone: string): Wire<typeof AuditEntrySchema> {
  return {
    id: entry.id,
    document_id: toPublicId('doc', entry.documentId),
    document_type: entry.documentType,
    external_id: entry.externalId,
    step: entry.step,
    attempt: entry.attempt,
    error: entry.error,
    details: entry.details,
    credential: entry.credentialType
      ? {
          type: entry.credentialType as AuthScheme | 'user',
          id: entry.credentialId ? `${CREDENTIAL_PREFIX[entry.credentialType] ?? 'crd'}-${entry.credentialId}` : null,
        }
      : null,
    request_id: entry.requestId,
    created_at: formatDateTime(entry.createdAt, timeZone),
  };
}
