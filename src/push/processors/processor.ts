// What applying a pushed document means, per document_type: each processor turns the document into
// the record it describes, inside the transaction that also marks the document processed.
import type { EntityManager } from 'typeorm';
import type { CompanyContext } from '../../auth/principal.js';
import type { Actor } from '../../invoices/invoices.repository.js';
import type { LedgerLookup } from '../ledger.repository.js';
import type { Outcome, PushDocument, ResultType } from '../push-document.js';

/**
 * Files in the document store that an attempt touched, settled by the worker once the transaction
 * ended: stored bytes are never overwritten (a new version gets a new key), so a rolled-back attempt
 * leaves the record pointing at its old, intact file.
 */
export interface FileChanges {
  /** New keys: deleted again when the transaction rolls back. */
  written: string[];
  /** Keys the record no longer points to: deleted once the transaction committed. */
  obsolete: string[];
}

export interface ProcessContext {
  company: CompanyContext;
  document: PushDocument;
  actor: Actor;
  manager: EntityManager;
  files: FileChanges;
  /** A payment's or credit memo's invoice and entry, looked up for the whole batch at once (else looked up by the processor). */
  ledger?: LedgerLookup;
}

/**
 * The record a document produced. A booked payment or credit is named by its external_id (unique per
 * company): its id is read in the statement that marks the batch processed, not once per document.
 */
export type ProducedRecord = { type: ResultType; id: string } | { type: ResultType; entryExternalId: string };

export interface ProcessResult {
  outcome: Exclude<Outcome, 'superseded'>;
  result: ProducedRecord;
  /** What the document asked for and did not get, and why (kept in the audit log's `succeeded` row). */
  notes?: string[];
}

export interface DocumentProcessor {
  apply(ctx: ProcessContext): Promise<ProcessResult>;
}
