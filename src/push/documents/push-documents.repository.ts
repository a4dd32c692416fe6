// SQL for pushed documents. Every status change writes its audit row in the same statement (a
// data-modifying CTE), so the log cannot miss a step that happened. Every method takes the company id.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PageRequest } from '../../common/pagination.js';
import { Sql } from '../../database/sql/sql.js';
import { statement, statementFamily } from '../../database/sql/statement.js';
import type { DocumentType } from '../dto/push-document.dto.js';
import type { AuditStep, Credential, DocumentStatus, PushDocument } from '../push-document.js';
import { pageWhere, setFilters } from './filter-conditions.js';
import { COLUMNS, type DocumentRow, toDocument } from './push-document-rows.js';

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

export interface DocumentFilters {
  status?: DocumentStatus;
  documentType?: DocumentType;
  externalId?: string;
}

const CONDITIONS: Record<keyof DocumentFilters, string> = {
  status: 'd.status = ?',
  documentType: 'd.document_type = ?',
  externalId: 'lower(d.external_id) = lower(?)',
};

/** Appends one audit row for the document(s) the CTE `changed` returned. */
const auditFrom = (step: AuditStep, extra = { attempt: 'NULL', error: 'NULL', details: 'NULL', credentialType: 'c.credential_type', credentialId: 'c.credential_id', requestId: 'c.request_id' }) =>
  `INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, details, credential_type, credential_id, request_id)
   SELECT c.company_id, c.id, '${step}', ${extra.attempt}, ${extra.error}, ${extra.details}, ${extra.credentialType}, ${extra.credentialId}, ${extra.requestId} FROM changed c`;

const LOCK_EXTERNAL_ID = statement('push.lock_external_id', `SELECT pg_advisory_xact_lock(hashtextextended($1 || lower($2), 0))`);

// The statements every pushed document runs are prepared (the default): for these CTEs planning cost
// about as much as executing.
const RECEIVE = statement<DocumentRow & { created: boolean }>(
  'push.receive',
  `WITH latest AS (
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
   SELECT ${COLUMNS}, false FROM push_documents d JOIN latest l ON l.same AND d.id = l.id WHERE d.company_id = $1`,
);
const RECEIVE_MANY = statement<DocumentRow & { created: boolean; n: string | null }>(
  'push.receive_many',
  `WITH input AS (
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
   SELECT ${COLUMNS}, false, l.n FROM input i JOIN latest l ON l.n = i.n AND l.same JOIN push_documents d ON d.company_id = i.company_id AND d.id = l.id`,
);

const FIND = statement<DocumentRow>('push.find', `SELECT ${COLUMNS} FROM push_documents d WHERE d.company_id = $1 AND d.id = $2`);
/**
 * A page with the filters that are set. Planned with their values each time (custom): how many rows a
 * filter matches depends on its value (a few dead letters, or nearly every document processed).
 */
const PAGE = statementFamily<ReadonlyArray<keyof DocumentFilters>, DocumentRow & { total: string }>(
  'push.page',
  (keys) => {
    const { where, limit } = pageWhere(CONDITIONS, keys, 'd.company_id = $1');
    return `SELECT ${COLUMNS}, count(*) OVER () AS total
         FROM push_documents d
        WHERE ${where}
        ORDER BY d.received_at, d.id ${limit}`;
  },
  [[], ['status', 'documentType', 'externalId']],
  { plan: 'custom' },
);

const REQUEUE = statement<DocumentRow>(
  'push.requeue',
  `WITH changed AS (
     UPDATE push_documents d SET status = 'queued', updated_at = now(), next_attempt_at = now(), attempts_before_replay = d.attempts, deferrals = 0
      WHERE d.company_id = $1 AND d.id = $2 AND d.status = 'dead_lettered' RETURNING ${COLUMNS}
   ), audit AS (${auditFrom('replayed', { attempt: 'c.attempts', error: 'NULL', details: 'NULL', credentialType: '$3::text', credentialId: '$4::uuid', requestId: '$5::text' })})
   SELECT * FROM changed`,
);
const DISCARD = statement<DocumentRow>(
  'push.discard',
  `WITH changed AS (
     UPDATE push_documents d SET status = 'discarded', discard_reason = $3, updated_at = now()
      WHERE d.company_id = $1 AND d.id = $2 AND d.status = 'dead_lettered' RETURNING ${COLUMNS}
   ), audit AS (${auditFrom('discarded', { attempt: 'c.attempts', error: 'NULL', details: `jsonb_build_object('reason', $3::text)`, credentialType: '$4::text', credentialId: '$5::uuid', requestId: '$6::text' })})
   SELECT * FROM changed`,
);

@Injectable()
export class PushDocumentsRepository {
  constructor(private readonly sql: Sql) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  /** Serializes pushes of one (document_type, external_id) until the transaction ends. */
  async lockExternalId(companyId: string, type: DocumentType, externalId: string, manager: EntityManager): Promise<void> {
    await this.sql.run(LOCK_EXTERNAL_ID, [`push:${companyId}:${type}:`, externalId], manager);
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
    const row = await this.sql.one(
      RECEIVE,
      [doc.companyId, doc.id, doc.type, doc.externalId, JSON.stringify(doc.payload), doc.payloadHash, by.type, by.id, by.requestId],
      manager,
    );
    return { document: toDocument(row), created: row.created };
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
    const params = [
      column('companyId'), column('id'), column('type'), column('externalId'),
      docs.map((d) => JSON.stringify(d.payload)), column('payloadHash'),
      column('credentialType'), column('credentialId'), column('requestId'),
    ];
    const created = new Map<string, PushDocument>();
    const again = new Map<number, PushDocument>();
    for (const row of await this.sql.rows(RECEIVE_MANY, params, manager)) {
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

  async find(companyId: string, id: string, manager?: EntityManager): Promise<PushDocument | undefined> {
    const row = await this.sql.first(FIND, [companyId, id], manager);
    return row && toDocument(row);
  }

  async list(companyId: string, filters: DocumentFilters, page: PageRequest): Promise<{ documents: PushDocument[]; total: number }> {
    const { keys, values } = setFilters(CONDITIONS, filters);
    const rows = await this.sql.rows(PAGE(keys), [companyId, ...values, page.perPage, page.offset]);
    return { documents: rows.map(toDocument), total: rows.length ? Number(rows[0].total) : 0 };
  }

  /** Dead letter → queued again (with a `replayed` row naming who); undefined when it is no dead letter. */
  async requeue(companyId: string, id: string, by: Credential): Promise<PushDocument | undefined> {
    const row = await this.sql.first(REQUEUE, [companyId, id, by.type, by.id, by.requestId]);
    return row && toDocument(row);
  }

  async discard(companyId: string, id: string, reason: string, by: Credential): Promise<PushDocument | undefined> {
    const row = await this.sql.first(DISCARD, [companyId, id, reason, by.type, by.id, by.requestId]);
    return row && toDocument(row);
  }
}
