// SQL of the append-only audit log of pushed documents (its rows are written by the statements that
// change a document, in the same statement). Every method takes the company id.
import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../../common/pagination.js';
import { Sql } from '../../database/sql/sql.js';
import { statementFamily } from '../../database/sql/statement.js';
import { pageWhere, setFilters } from '../documents/filter-conditions.js';
import type { DocumentType } from '../dto/push-document.dto.js';
import type { AuditEntry, AuditStep } from '../push-document.js';

export interface AuditFilters {
  documentId?: string;
  step?: AuditStep;
  documentType?: DocumentType;
  externalId?: string;
  since?: Date;
  until?: Date;
}

const CONDITIONS: Record<keyof AuditFilters, string> = {
  documentId: 'a.document_id = ?',
  step: 'a.step = ?',
  documentType: 'd.document_type = ?',
  externalId: 'lower(d.external_id) = lower(?)',
  since: 'a.created_at >= ?',
  until: 'a.created_at < ?',
};

interface AuditRow {
  id: string;
  document_id: string;
  document_type: DocumentType;
  external_id: string;
  step: AuditStep;
  attempt: number | null;
  error: string | null;
  details: Record<string, unknown> | null;
  credential_type: string | null;
  credential_id: string | null;
  request_id: string | null;
  created_at: Date;
  total: string;
}

/**
 * A page of the log with the filters that are set. Planned with their values each time (custom): how
 * many rows a filter matches depends on its value (one document's few rows, or a step of every document).
 */
const PAGE = statementFamily<ReadonlyArray<keyof AuditFilters>, AuditRow>(
  'push.audit_page',
  (keys) => {
    const { where, limit } = pageWhere(CONDITIONS, keys, 'a.company_id = $1');
    return `SELECT a.id, a.document_id, d.document_type, d.external_id, a.step, a.attempt, a.error, a.details, a.credential_type, a.credential_id,
              a.request_id, a.created_at, count(*) OVER () AS total
         FROM push_audit_log a JOIN push_documents d ON d.company_id = a.company_id AND d.id = a.document_id
        WHERE ${where}
        ORDER BY a.id ${limit}`;
  },
  [[], ['documentId', 'step', 'documentType', 'externalId', 'since', 'until']],
  { plan: 'custom' },
);

@Injectable()
export class PushAuditRepository {
  constructor(private readonly sql: Sql) {}

  async page(companyId: string, filters: AuditFilters, page: PageRequest): Promise<{ entries: AuditEntry[]; total: number }> {
    const { keys, values } = setFilters(CONDITIONS, filters);
    const rows = await this.sql.rows(PAGE(keys), [companyId, ...values, page.perPage, page.offset]);
    const entries = rows.map((r) => ({
      id: String(r.id),
      documentId: r.document_id,
      documentType: r.document_type,
      externalId: r.external_id,
      step: r.step,
      attempt: r.attempt,
      error: r.error,
      details: r.details,
      credentialType: r.credential_type,
      credentialId: r.credential_id,
      requestId: r.request_id,
      createdAt: r.created_at,
    }));
    return { entries, total: rows.length ? Number(rows[0].total) : 0 };
  }
}
