// SQL for pushed documents and their audit log. Every status change writes its audit row in the same
// statement (a data-modifying CTE), so the log cannot miss a step that happened. Every method takes
// the company id.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../../common/pagination.js';
import type { DocumentType } from '../dto/push-document.dto.js';
import type { AuditEntry, AuditStep, Credential, DocumentStatus, Outcome, PushDocument, ResultType } from '../push-document.js';
import { namedQuery } from '../../database/named-query.js';

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

/** An earlier version of the same (document_type, external_id) that is not done yet. */
export const PENDING_PREDECESSOR = `EXISTS (
  SELECT 1 FROM push_documents p
   WHERE p.company_id = d.company_id AND p.document_type = d.document_type AND lower(p.external_id) = lower(d.external_id)
     AND p.version < d.version AND p.status IN ('queued', 'processing', 'failed'))`;

/** The statements every pushed document runs are named (prepared, see namedQuery): for these CTEs planning cost about as much as executing. */
export const named = (name: string, text: string): string => namedQuery(`push_${name}`, text);

/** Appends one audit row for the document(s) the CTE `changed` returned. */
const auditFrom = (step: AuditStep, extra = { attempt: 'NULL', error: 'NULL', details: 'NULL', credentialType: 'c.credential_type', credentialId: 'c.credential_id', requestId: 'c.request_id' }) =>
  `INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, details, credential_type, credential_id, request_id)
   SELECT c.company_id, c.id, '${step}', ${extra.attempt}, ${extra.error}, ${extra.details}, ${extra.credentialType}, ${extra.credentialId}, ${extra.requestId} FROM changed c`;

/** One document of a group commit, with the credential that pushed it. */
export interface ReceivedDocument {
  companyId: string;
  id: string;
  type: DocumentType;
  externalId: string;
  payload: object;
  payloadHash: Buffer;
  credentialType: string;
  credentialId: string;
  requestId: string | null;
}

export interface AuditFilters {
  documentId?: string;
  step?: AuditStep;
  documentType?: DocumentType;
  externalId?: string;
  since?: Date;
  until?: Date;
}

export interface DocumentFilters {
  status?: DocumentStatus;
  documentType?: DocumentType;
  externalId?: string;
}

@Injectable()
export class PushDocumentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Serializes pushes of one (document_type, external_id) until the transaction ends. */
  async lockExternalId(companyId: string, type: DocumentType, externalId: string, manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1 || lower($2), 0))`, [`push:${companyId}:${type}:`, externalId]);
  }

  /**
   * Receives a document in one statement: unless the newest version of its (document_type,
   * external_id) has the same payload hash, it is stored as the next version with its `received` audit
   * row (`created`); else that newest version gets a `received_again` row and is returned. Two pushes
   * at once may both take the same next version: one fails on push_documents_version_key.
   */
  async receive(
    doc: { companyId: string; id: string; type: DocumentType; externalId: string; payload: object; payloadHash: Buffer },
    by: Credential,
    manager: EntityManager,
  ): Promise<{ document: PushDocument; created: boolean }> {
    const rows: Array<DocumentRow & { created: boolean }> = await manager.query(
      named('receive', `WITH latest AS (
         SELECT l.id, l.version, l.payload_hash = $6 AS same FROM push_documents l
          WHERE l.company_id = $1 AND l.document_type = $3 AND lower(l.external_id) = lower($4)
          ORDER BY l.version DESC LIMIT 1
       ), changed AS (
         INSERT INTO push_documents AS d (company_id, id, document_type, external_id, version, payload, payload_hash, credential_type, credential_id, request_id)
         SELECT $1, $2, $3, $4, coalesce((SELECT version FROM latest), 0) + 1, $5, $6, $7, $8, $9
          WHERE NOT EXISTS (SELECT 1 FROM latest WHERE same)
         RETURNING ${COLUMNS}
       ), audit AS (
         INSERT INTO push_audit_log (company_id, document_id, step, details, credential_type, credential_id, request_id)
         SELECT c.company_id, c.id, 'received', jsonb_build_object('version', c.version), c.credential_type, c.credential_id, c.request_id FROM changed c
         UNION ALL
         SELECT $1, l.id, 'received_again', NULL, $7, $8, $9 FROM latest l WHERE l.same
       )
       SELECT changed.*, true AS created FROM changed
       UNION ALL
       SELECT ${COLUMNS}, false FROM push_documents d JOIN latest l ON l.same AND d.id = l.id WHERE d.company_id = $1`),
      [doc.companyId, doc.id, doc.type, doc.externalId, JSON.stringify(doc.payload), doc.payloadHash, by.type, by.id, by.requestId],
    );
    return { document: toDocument(rows[0]), created: rows[0].created };
  }

  /**
   * receive() for many documents in one statement (the group commit of POST /v2/documents): each row
   * is stored as the next version of its (document_type, external_id) with its `received` audit row,
   * or answered with the newest version (`received_again`) when that has the same payload hash. The
   * rows must name distinct (company, document_type, external_id)s: a batch never holds two versions
   * of one. Answers in the order of `docs`.
   */
  async receiveMany(docs: ReceivedDocument[], manager: EntityManager): Promise<Array<{ document: PushDocument; created: boolean }>> {
    const column = <K extends keyof ReceivedDocument>(key: K) => docs.map((d) => d[key]);
    const rows: Array<DocumentRow & { created: boolean; n: string | null }> = await manager.query(
      named('receive_many', `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::jsonb[], $6::bytea[], $7::text[], $8::uuid[], $9::text[])
                  WITH ORDINALITY AS i(company_id, id, document_type, external_id, payload, payload_hash, credential_type, credential_id, request_id, n)
       ), latest AS (
         SELECT i.n, l.id, l.version, l.payload_hash = i.payload_hash AS same
           FROM input i CROSS JOIN LATERAL (
             SELECT l.id, l.version, l.payload_hash FROM push_documents l
              WHERE l.company_id = i.company_id AND l.document_type = i.document_type AND lower(l.external_id) = lower(i.external_id)
              ORDER BY l.version DESC LIMIT 1) l
       ), changed AS (
         INSERT INTO push_documents AS d (company_id, id, document_type, external_id, version, payload, payload_hash, credential_type, credential_id, request_id, received_at)
         SELECT i.company_id, i.id, i.document_type, i.external_id, coalesce(l.version, 0) + 1, i.payload, i.payload_hash, i.credential_type, i.credential_id, i.request_id, clock_timestamp()
           FROM input i LEFT JOIN latest l ON l.n = i.n
          WHERE NOT coalesce(l.same, false)
          ORDER BY i.n
         RETURNING ${COLUMNS}
       ), audit AS (
         INSERT INTO push_audit_log (company_id, document_id, step, details, credential_type, credential_id, request_id)
         SELECT c.company_id, c.id, 'received', jsonb_build_object('version', c.version), c.credential_type, c.credential_id, c.request_id FROM changed c
         UNION ALL
         SELECT i.company_id, l.id, 'received_again', NULL, i.credential_type, i.credential_id, i.request_id FROM input i JOIN latest l ON l.n = i.n AND l.same
       )
       SELECT changed.*, true AS created, NULL::bigint AS n FROM changed
       UNION ALL
       SELECT ${COLUMNS}, false, l.n FROM input i JOIN latest l ON l.n = i.n AND l.same JOIN push_documents d ON d.company_id = i.company_id AND d.id = l.id`),
      [
        column('companyId'), column('id'), column('type'), column('externalId'),
        docs.map((d) => JSON.stringify(d.payload)), column('payloadHash'),
        column('credentialType'), column('credentialId'), column('requestId'),
      ],
    );
    const created = new Map<string, PushDocument>();
    const again = new Map<number, PushDocument>();
    for (const row of rows) {
      if (row.created) created.set(row.id, toDocument(row));
      else again.set(Number(row.n), toDocument(row));
    }
    return docs.map((d, i) => {
      const document = created.get(d.id);
      if (document) return { document, created: true };
      const first = again.get(i + 1);
      if (!first) throw new Error(`document ${d.id} of a batch was neither stored nor found`);
      return { document: first, created: false };
    });
  }

  async find(companyId: string, id: string, manager: EntityManager = this.db.manager): Promise<PushDocument | undefined> {
    const rows: DocumentRow[] = await manager.query(`SELECT ${COLUMNS} FROM push_documents d WHERE d.company_id = $1 AND d.id = $2`, [companyId, id]);
    return rows[0] && toDocument(rows[0]);
  }

  async list(companyId: string, filters: DocumentFilters, page: PageRequest): Promise<{ documents: PushDocument[]; total: number }> {
    const where = ['d.company_id = $1'];
    const params: unknown[] = [companyId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filters.status) add('d.status = ?', filters.status);
    if (filters.documentType) add('d.document_type = ?', filters.documentType);
    if (filters.externalId) add('lower(d.external_id) = lower(?)', filters.externalId);
    params.push(page.perPage, page.offset);
    const rows: Array<DocumentRow & { total: string }> = await this.db.query(
      `SELECT ${COLUMNS}, count(*) OVER () AS total FROM push_documents d WHERE ${where.join(' AND ')}
        ORDER BY d.received_at, d.id LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return { documents: rows.map(toDocument), total: rows.length ? Number(rows[0].total) : 0 };
  }

  /** Dead letter → queued again (with a `replayed` row naming who); undefined when it is no dead letter. */
  async requeue(companyId: string, id: string, by: Credential): Promise<PushDocument | undefined> {
    const rows: DocumentRow[] = await this.db.query(
      `WITH changed AS (
         UPDATE push_documents d SET status = 'queued', updated_at = now(), next_attempt_at = now(), attempts_before_replay = d.attempts, deferrals = 0
          WHERE d.company_id = $1 AND d.id = $2 AND d.status = 'dead_lettered' RETURNING ${COLUMNS}
       ), audit AS (${auditFrom('replayed', { attempt: 'c.attempts', error: 'NULL', details: 'NULL', credentialType: '$3::text', credentialId: '$4::uuid', requestId: '$5::text' })})
       SELECT * FROM changed`,
      [companyId, id, by.type, by.id, by.requestId],
    );
    return rows[0] && toDocument(rows[0]);
  }

  async discard(companyId: string, id: string, reason: string, by: Credential): Promise<PushDocument | undefined> {
    const rows: DocumentRow[] = await this.db.query(
      `WITH changed AS (
         UPDATE push_documents d SET status = 'discarded', discard_reason = $3, updated_at = now()
          WHERE d.company_id = $1 AND d.id = $2 AND d.status = 'dead_lettered' RETURNING ${COLUMNS}
       ), audit AS (${auditFrom('discarded', { attempt: 'c.attempts', error: 'NULL', details: `jsonb_build_object('reason', $3::text)`, credentialType: '$4::text', credentialId: '$5::uuid', requestId: '$6::text' })})
       SELECT * FROM changed`,
      [companyId, id, reason, by.type, by.id, by.requestId],
    );
    return rows[0] && toDocument(rows[0]);
  }

  async auditLog(companyId: string, filters: AuditFilters, page: PageRequest): Promise<{ entries: AuditEntry[]; total: number }> {
    const where = ['a.company_id = $1'];
    const params: unknown[] = [companyId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filters.documentId) add('a.document_id = ?', filters.documentId);
    if (filters.step) add('a.step = ?', filters.step);
    if (filters.documentType) add('d.document_type = ?', filters.documentType);
    if (filters.externalId) add('lower(d.external_id) = lower(?)', filters.externalId);
    if (filters.since) add('a.created_at >= ?', filters.since);
    if (filters.until) add('a.created_at < ?', filters.until);
    params.push(page.perPage, page.offset);
    const rows: Array<{
      id: string; document_id: string; document_type: DocumentType; external_id: string; step: AuditStep; attempt: number | null; error: string | null;
      details: Record<string, unknown> | null; credential_type: string | null; credential_id: string | null; request_id: string | null; created_at: Date; total: string;
    }> = await this.db.query(
      `SELECT a.id, a.document_id, d.document_type, d.external_id, a.step, a.attempt, a.error, a.details, a.credential_type, a.credential_id,
              a.request_id, a.created_at, count(*) OVER () AS total
         FROM push_audit_log a JOIN push_documents d ON d.company_id = a.company_id AND d.id = a.document_id
        WHERE ${where.join(' AND ')}
        ORDER BY a.id LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
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
