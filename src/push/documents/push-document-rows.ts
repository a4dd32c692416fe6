// How a push_documents row is read: the column lists the statements select and the row they return,
// turned into a PushDocument. Shared by the intake, the read API and the queue.
import type { DocumentType } from '../dto/push-document.dto.js';
import type { DocumentStatus, Outcome, PushDocument, ResultType } from '../push-document.js';

export interface DocumentRow {
  company_id: string;
  id: string;
  document_type: DocumentType;
  external_id: string;
  version: number;
  payload: Record<string, unknown>;
  status: DocumentStatus;
  attempts: number;
  attempts_before_replay: number;
  last_error: string | null;
  outcome: Outcome | null;
  result_type: ResultType | null;
  result_id: string | null;
  credential_type: string;
  credential_id: string;
  request_id: string | null;
  discard_reason: string | null;
  received_at: Date;
  processed_at: Date | null;
  dead_lettered_at: Date | null;
  updated_at: Date;
  pdf_bytes?: number | null;
}

const OTHER_COLUMNS = `d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.attempts_before_replay, d.last_error,
  d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
  d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at`;
/** Everything, for the worker. */
export const FULL_COLUMNS = `${OTHER_COLUMNS}, d.payload`;
/** Without the base64 PDF (up to MAX_UPLOAD_MB each), which answers and lists show by its size only. */
export const COLUMNS = `${OTHER_COLUMNS}, d.payload - 'pdf' AS payload,
  (SELECT octet_length(b) * 3 / 4 - (octet_length(b) - octet_length(rtrim(b, '='))) FROM (SELECT d.payload ->> 'pdf' AS b) AS pdf) AS pdf_bytes`;

export const toDocument = (r: DocumentRow): PushDocument => ({
  companyId: r.company_id,
  id: r.id,
  documentType: r.document_type,
  externalId: r.external_id,
  version: r.version,
  payload: r.payload,
  status: r.status,
  attempts: r.attempts,
  attemptsBeforeReplay: r.attempts_before_replay,
  lastError: r.last_error,
  outcome: r.outcome,
  resultType: r.result_type,
  resultId: r.result_id,
  credentialType: r.credential_type,
  credentialId: r.credential_id,
  requestId: r.request_id,
  discardReason: r.discard_reason,
  receivedAt: r.received_at,
  processedAt: r.processed_at,
  deadLetteredAt: r.dead_lettered_at,
  updatedAt: r.updated_at,
  pdfBytes: r.pdf_bytes ?? null,
});
