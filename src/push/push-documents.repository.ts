// SQL for pushed documents and their audit log. Every status change writes its audit row in the same
// statement (a data-modifying CTE), so the log cannot miss a step that happened. Every method takes
// the company id.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination.js';
import type { DocumentType } from './dto/push-document.dto.js';
import type { AuditEntry, AuditStep, Credential, DocumentStatus, Outcome, PushDocument, ResultType } from './push-document.js';
import { PUSH_QUEUE } from './push-queue.js';

interface DocumentRow {
  company_id: string;
  id: string;
  document_type: DocumentType;
  external_id: string;
  version: number;
  payload: Record<string, unknown>;
  status: DocumentStatus;
  attempts: number;
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

const OTHER_COLUMNS = `d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.last_error,
  d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
  d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at`;
/** Everything, for the worker. */
const FULL_COLUMNS = `${OTHER_COLUMNS}, d.payload`;
/** Without the base64 PDF (up to MAX_UPLOAD_MB each), which answers and lists show by its size only. */
const COLUMNS = `${OTHER_COLUMNS}, d.payload - 'pdf' AS payload,
  (SELECT octet_length(b) * 3 / 4 - (octet_length(b) - octet_length(rtrim(b, '='))) FROM (SELECT d.payload ->> 'pdf' AS b) AS pdf) AS pdf_bytes`;

const toDocument = (r: DocumentRow): PushDocument => ({
  companyId: r.company_id,
  id: r.id,
  documentType: r.document_type,
  externalId: r.external_id,
  version: r.version,
  payload: r.payload,
  status: r.status,
  attempts: r.attempts,
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
const PENDING_PREDECESSOR = `EXISTS (
  SELECT 1 FROM push_documents p
   WHERE p.company_id = d.company_id AND p.document_type = d.document_type AND lower(p.external_id) = lower(d.external_id)
     AND p.version < d.version AND p.status IN ('queued', 'processing', 'failed'))`;

/**
 * The statements every pushed document runs are named (prepared): PostgreSQL plans each once per
 * connection instead of on every call — for these CTE statements the planning cost about as much as
 * the execution. TypeORM hands the query object to node-postgres unchanged.
 */
const named = (name: string, text: string): string => ({ name: `push_${name}`, text }) as unknown as string;

/** Later versions (alias s) of the document with these (company, type, external_id, version) parameters. */
const SUCCESSOR_OF = (company: string, type: string, externalId: string, version: string) =>
  `s.company_id = ${company} AND s.document_type = ${type} AND lower(s.external_id) = lower(${externalId}) AND s.version > ${version}`;

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

  async audit(companyId: string, documentId: string, step: AuditStep, by: Credential | null, manager: EntityManager = this.db.manager, fields: { attempt?: number; error?: string; details?: object } = {}): Promise<void> {
    await manager.query(
      `INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, details, credential_type, credential_id, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [companyId, documentId, step, fields.attempt ?? null, fields.error ?? null, fields.details ? JSON.stringify(fields.details) : null, by?.type ?? null, by?.id ?? null, by?.requestId ?? null],
    );
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

  /**
   * Starts an attempt: the document becomes `processing` (attempts + 1, an `attempt` audit row) unless
   * it is done already or an earlier version of its external_id is still pending. A document found
   * `processing` lost its previous attempt (its process ended, or it outran PUSH_ATTEMPT_TIMEOUT_SECONDS):
   * that attempt gets its `failed` row first. Returns the document with its company's name and time
   * zone, or undefined when it was not started.
   */
  async startAttempt(companyId: string, id: string): Promise<{ document: PushDocument; companyName: string; timeZone: string } | undefined> {
    const rows: Array<DocumentRow & { company_name: string; time_zone: string }> = await this.db.query(
      named('start_attempt', `WITH changed AS (
         UPDATE push_documents d SET status = 'processing', attempts = d.attempts + 1, updated_at = now(),
                last_error = CASE WHEN d.status = 'processing' THEN $3 ELSE d.last_error END
           FROM push_documents p
          WHERE d.company_id = $1 AND d.id = $2 AND d.status IN ('queued', 'processing', 'failed') AND NOT ${PENDING_PREDECESSOR}
            AND p.company_id = d.company_id AND p.id = d.id
          RETURNING ${FULL_COLUMNS}, p.status AS previous_status
       ), audit AS (
         INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, credential_type, credential_id, request_id)
         SELECT c.company_id, c.id, s.step, c.attempts - s.back, CASE WHEN s.step = 'failed' THEN $3 END, c.credential_type, c.credential_id, c.request_id
           FROM changed c CROSS JOIN (VALUES (1, 'failed', 1), (2, 'attempt', 0)) AS s(n, step, back)
          WHERE s.step = 'attempt' OR c.previous_status = 'processing'
          ORDER BY s.n
       )
       SELECT changed.*, co.name AS company_name, co.time_zone FROM changed JOIN companies co ON co.id = changed.company_id`),
      [companyId, id, 'the attempt did not finish: its process ended, or it ran longer than PUSH_ATTEMPT_TIMEOUT_SECONDS'],
    );
    const row = rows[0];
    return row && { document: toDocument(row), companyName: row.company_name, timeZone: row.time_zone };
  }

  /**
   * Locks the document row for the effect's transaction (two runs of one document queue up here) and
   * tells whether a later version of its external_id was applied already (this one is stale then).
   */
  async lockForEffect(doc: PushDocument, manager: EntityManager): Promise<{ status: DocumentStatus; superseded: boolean } | undefined> {
    const rows: Array<{ status: DocumentStatus; superseded: boolean }> = await manager.query(
      named('lock_for_effect', `SELECT d.status, EXISTS (
                SELECT 1 FROM push_documents l
                 WHERE l.company_id = d.company_id AND l.document_type = d.document_type AND lower(l.external_id) = lower(d.external_id)
                   AND l.version > d.version AND l.status = 'processed') AS superseded
         FROM push_documents d WHERE d.company_id = $1 AND d.id = $2 FOR UPDATE OF d`),
      [doc.companyId, doc.id],
    );
    return rows[0];
  }

  /** Marks the document processed; true when a later version of its external_id waits for it (wake it after the commit). */
  async markProcessed(doc: PushDocument, outcome: Outcome, result: { type: ResultType; id: string } | null, manager: EntityManager, notes: string[] = []): Promise<boolean> {
    const rows: Array<{ waiting: boolean }> = await manager.query(
      named('mark_processed', `WITH changed AS (
         UPDATE push_documents d SET status = 'processed', outcome = $3, result_type = $4, result_id = $5, last_error = NULL,
                processed_at = now(), updated_at = now()
          WHERE d.company_id = $1 AND d.id = $2 RETURNING ${COLUMNS}
       ) ${auditFrom('succeeded', {
         attempt: 'c.attempts',
         error: 'NULL',
         details: `jsonb_build_object('outcome', c.outcome, 'result_type', c.result_type, 'result_id', c.result_id)
                   || CASE WHEN $6::jsonb IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('notes', $6::jsonb) END`,
         credentialType: 'c.credential_type',
         credentialId: 'c.credential_id',
         requestId: 'c.request_id',
       })}
       RETURNING EXISTS (SELECT 1 FROM push_documents s WHERE ${SUCCESSOR_OF('$1', '$7', '$8', '$9')} AND s.status = 'queued') AS waiting`),
      [doc.companyId, doc.id, outcome, result?.type ?? null, result?.id ?? null, notes.length ? JSON.stringify(notes) : null, doc.documentType, doc.externalId, doc.version],
    );
    return rows[0]?.waiting ?? false;
  }

  /**
   * A version finished (processed or dead-lettered): the later versions of its external_id that were
   * deferred behind it are due now. Their waiting job is moved forward in the job queue's own table
   * (pg-boss 10: pgboss.job, state created, start_after), instead of a second job per document.
   */
  async wakeSuccessors(doc: Pick<PushDocument, 'companyId' | 'documentType' | 'externalId' | 'version'>): Promise<void> {
    await this.db.query(
      `UPDATE pgboss.job j SET start_after = now()
         FROM push_documents s
        WHERE j.name = $1 AND j.state = 'created' AND j.start_after > now()
          AND j.data ->> 'companyId' = $2 AND j.data ->> 'documentId' = s.id::text
          AND ${SUCCESSOR_OF('$3', '$4', '$5', '$6')} AND s.status = 'queued'`,
      [PUSH_QUEUE, doc.companyId, doc.companyId, doc.documentType, doc.externalId, doc.version],
    );
  }

  /** Moves the document's own deferred job forward: its earlier version finished while it was being deferred. */
  async wake(doc: PushDocument): Promise<void> {
    await this.db.query(
      `UPDATE pgboss.job SET start_after = now()
        WHERE name = $1 AND state = 'created' AND start_after > now() AND data ->> 'companyId' = $2::text AND data ->> 'documentId' = $3::text`,
      [PUSH_QUEUE, doc.companyId, doc.id],
    );
  }

  async hasPendingPredecessor(doc: PushDocument): Promise<boolean> {
    const rows: Array<{ pending: boolean }> = await this.db.query(
      `SELECT ${PENDING_PREDECESSOR} AS pending FROM push_documents d WHERE d.company_id = $1 AND d.id = $2`,
      [doc.companyId, doc.id],
    );
    return rows[0]?.pending ?? false;
  }

  /** A failed attempt; the last one (or a hopeless one) dead-letters the document at once, saying why. */
  async markFailed(companyId: string, id: string, error: string, final: boolean, reason = 'every attempt failed'): Promise<void> {
    await this.db.query(
      `WITH changed AS (
         UPDATE push_documents d SET status = CASE WHEN $4 THEN 'dead_lettered' ELSE 'failed' END, last_error = $3,
                dead_lettered_at = CASE WHEN $4 THEN now() ELSE d.dead_lettered_at END, updated_at = now()
          WHERE d.company_id = $1 AND d.id = $2 AND d.status = 'processing' RETURNING ${COLUMNS}
       )
       INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, details, credential_type, credential_id, request_id)
       SELECT c.company_id, c.id, s.step, c.attempts, c.last_error,
              CASE WHEN s.step = 'dead_lettered' THEN jsonb_build_object('reason', $5::text) END,
              c.credential_type, c.credential_id, c.request_id
         FROM changed c CROSS JOIN (VALUES (1, 'failed'), (2, 'dead_lettered')) AS s(n, step)
        WHERE s.step = 'failed' OR c.status = 'dead_lettered'
        ORDER BY s.n`,
      [companyId, id, error, final, reason],
    );
  }

  /**
   * From the dead-letter queue: jobs that ran out of attempts without the worker recording it (e.g.
   * timed out). A document replayed since the job was dead-lettered (`since`) is left alone.
   */
  async deadLetter(companyId: string, id: string, reason: string, since: Date): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH changed AS (
         UPDATE push_documents d SET status = 'dead_lettered', dead_lettered_at = now(), updated_at = now(),
                last_error = coalesce(d.last_error, $3)
          WHERE d.company_id = $1 AND d.id = $2 AND d.status IN ('queued', 'processing', 'failed')
            AND NOT EXISTS (SELECT 1 FROM push_audit_log a WHERE a.company_id = d.company_id AND a.document_id = d.id
                             AND a.step = 'replayed' AND a.created_at >= $4)
          RETURNING ${COLUMNS}
       ), audit AS (${auditFrom('dead_lettered', { attempt: 'c.attempts', error: 'c.last_error', details: `jsonb_build_object('reason', $3::text)`, credentialType: 'c.credential_type', credentialId: 'c.credential_id', requestId: 'c.request_id' })})
       SELECT id FROM changed`,
      [companyId, id, reason, since],
    );
    return rows.length > 0;
  }

  /** Dead letter → queued again (with a `replayed` row naming who); undefined when it is no dead letter. */
  async requeue(companyId: string, id: string, by: Credential, manager: EntityManager): Promise<PushDocument | undefined> {
    const rows: DocumentRow[] = await manager.query(
      `WITH changed AS (
         UPDATE push_documents d SET status = 'queued', updated_at = now()
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
