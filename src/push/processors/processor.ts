// What applying a pushed document means, per document_type: each processor turns the document into
// the record it describes, inside the transaction that also marks the document processed.
import type { EntityManager } from 'typeorm';
import type { CompanyContext } from '../../auth/principal.js';
import type { Actor } from '../../invoices/invoices.repository.js';
import type { Outcome, PushDocument, ResultType } from '../push-document.js';

export interface ProcessContext {
  company: CompanyContext;
  document: PushDocument;
  actor: Actor;
  manager: EntityManager;
}

export interface ProcessResult {
  outcome: Exclude<Outcome, 'superseded'>;
  result: { type: ResultType; id: string };
}

export interface DocumentProcessor {
  apply(ctx: ProcessContext): Promise<ProcessResult>;
}
