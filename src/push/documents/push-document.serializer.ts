// The wire JSON of a pushed document and of an audit log entry. The payload is shown as received
// (normalized), without the base64 PDF, which is summarized by its size.
import { formatDateTime } from '../../common/dates.js';
import { type IdPrefix, toPublicId } from '../../common/ids.js';
import type { AuditEntry, PushDocument, ResultType } from '../push-document.js';

const RESULT_PREFIX: Record<ResultType, IdPrefix> = { invoice: 'inv', payment: 'pay', credit: 'pay', customer: 'cus' };

/** Credential ids in the audit log carry the prefix of their kind. */
const CREDENTIAL_PREFIX: Record<string, string> = { apikey: 'key', token: 'tok', bearer: 'oat' };

export function serializeDocument(doc: PushDocument, timeZone: string) {
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

export function serializeAuditEntry(entry: AuditEntry, timeZone: string) {
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
      ? { type: entry.credentialType, id: entry.credentialId ? `${CREDENTIAL_PREFIX[entry.credentialType] ?? 'crd'}-${entry.credentialId}` : null }
      : null,
    request_id: entry.requestId,
    created_at: formatDateTime(entry.createdAt, timeZone),
  };
}
