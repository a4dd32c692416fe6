// A pushed document as the service keeps it: its payload, where it is in processing, and what it produced.
import type { DocumentType } from './dto/push-document.dto.js';

export const DOCUMENT_STATUSES = ['queued', 'processing', 'processed', 'failed', 'dead_lettered', 'discarded'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export type Outcome = 'applied' | 'unchanged' | 'superseded';
export type ResultType = 'invoice' | 'payment' | 'credit' | 'customer';

export const AUDIT_STEPS = [
  'received',
  'received_again',
  'attempt',
  'succeeded',
  'failed',
  'deferred',
  'dead_lettered',
  'replayed',
  'discarded',
] as const;
export type AuditStep = (typeof AUDIT_STEPS)[number];

export interface Credential {
  type: string;
  id: string;
  requestId: string | null;
}

export interface PushDocument {
  companyId: string;
  id: string;
  documentType: DocumentType;
  externalId: string;
  version: number;
  payload: Record<string, unknown>;
  status: DocumentStatus;
  attempts: number;
  /** Attempts before the last replay: a replayed dead letter gets its retries afresh. */
  attemptsBeforeReplay: number;
  lastError: string | null;
  outcome: Outcome | null;
  resultType: ResultType | null;
  resultId: string | null;
  credentialType: string;
  credentialId: string;
  requestId: string | null;
  discardReason: string | null;
  receivedAt: Date;
  processedAt: Date | null;
  deadLetteredAt: Date | null;
  updatedAt: Date;
  /** Size of the PDF the payload carries, when it was read without it (the payload then has no `pdf`). */
  pdfBytes: number | null;
}

export interface AuditEntry {
  id: string;
  documentId: string;
  documentType: DocumentType;
  externalId: string;
  step: AuditStep;
  attempt: number | null;
  error: string | null;
  details: Record<string, unknown> | null;
  credentialType: string | null;
  credentialId: string | null;
  requestId: string | null;
  createdAt: Date;
}
