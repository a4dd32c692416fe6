// SQL of the processing queue: push_documents is its own queue (a pending status and
// next_attempt_at, partial index push_documents_due_idx). Workers claim due documents in batches with
// FOR UPDATE SKIP LOCKED, so replicas never take the same one; every step is set-based and writes its
// audit rows in the same statement.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { planForCurrentTables } from '../../database/custom-plans.js';
import type { ProducedRecord } from '../processors/processor.js';
import type { Outcome, PushDocument } from '../push-document.js';
import { type DocumentRow, FULL_COLUMNS, named, PENDING_PREDECESSOR, toDocument } from '../documents/push-documents.repository.js';

/** A document whose attempt has started: with its company's name and time zone for the processor. */
export interface ClaimedDocument {
  document: PushDocument;
  companyName: string;
  timeZone: string;
}

export interface QueuePolicy {
  /** Attempts after the first one (since the last replay). */
  retryLimit: number;
  /** The lease of an attempt: a document still `processing` after it lost its attempt (its process ended). */
  attemptTimeoutSeconds: number;
  /** The first wait behind an earlier version; doubled on each further look, up to MAX_DEFER_SECONDS. */
  deferSeconds: number;
}

export interface Succeeded {
  document: PushDocument;
  outcome: Outcome;
  result: ProducedRecord | null;
  notes: string[];
}

export interface Failed {
  document: PushDocument;
  error: string;
  /** Dead-lettered now (the last attempt, or an error no retry can cure). */
  final: boolean;
  reason: string;
}

/** The longest wait between two looks of a deferred document (the earlier version usually wakes it sooner). */
const MAX_DEFER_SECONDS = 60;
const LOST_ATTEMPT = 'the attempt did not finish: its process ended, or it ran longer than PUSH_ATTEMPT_TIMEOUT_SECONDS';

interface DueRow {
  company_id: string;
  id: string;
  status: string;
  tries: number;
  waits: boolean;
}

type Key = Pick<PushDocument, 'companyId' | 'id'>;
const keys = (docs: Key[]) => [docs.map((d) => d.companyId), docs.map((d) => d.id)];

@Injectable()
export class PushQueueRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Claims up to `limit` due documents in one transaction and starts their attempt (status
   * `processing`, attempts + 1, the lease as next_attempt_at, an `attempt` row; a lost previous
   * attempt gets its `failed` row first). A document whose earlier version is pending waits instead
   * (one `deferred` row, growing delays); one that lost its last attempt is dead-lettered. Returns the
   * started documents, and the deferred ones (to look at again once this commit is visible).
   */
  async claim(limit: number, policy: QueuePolicy): Promise<{ started: ClaimedDocument[]; deferred: Key[]; deadLettered: PushDocument[] }> {
    return this.db.transaction(async (manager) => {
      await planForCurrentTables(manager);
      const due: DueRow[] = await manager.query(
        named('claim', `SELECT d.company_id, d.id, d.status, d.attempts - d.attempts_before_replay AS tries, ${PENDING_PREDECESSOR} AS waits
           FROM push_documents d
          WHERE d.status IN ('queued', 'processing', 'failed') AND d.next_attempt_at <= now()
          ORDER BY d.next_attempt_at LIMIT $1 FOR UPDATE OF d SKIP LOCKED`),
        [limit],
      );
      const key = (r: DueRow) => ({ companyId: r.company_id, id: r.id });
      const deferred = due.filter((r) => r.waits).map(key);
      const lost = due.filter((r) => !r.waits && r.status === 'processing' && r.tries > policy.retryLimit);
      const start = due.filter((r) => !r.waits && !lost.includes(r));
      if (deferred.length) await this.defer(deferred, policy.deferSeconds, manager);
      const deadLettered = lost.length ? await this.deadLetterLost(lost.map(key), manager) : [];
      const started = start.length ? await this.start(start, policy.attemptTimeoutSeconds, manager) : [];
      return { started, deferred, deadLettered };
    });
  }

  private async start(rows: DueRow[], leaseSeconds: number, manager: EntityManager): Promise<ClaimedDocument[]> {
    const started: Array<DocumentRow & { company_name: string; time_zone: string }> = await manager.query(
      named('start', `WITH changed AS (
         UPDATE push_documents d SET status = 'processing', attempts = d.attempts + 1, updated_at = now(),
                next_attempt_at = now() + $4::float8 * interval '1 second',
                last_error = CASE WHEN t.previous_status = 'processing' THEN $5 ELSE d.last_error END
           FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS t(company_id, id, previous_status)
          WHERE d.company_id = t.company_id AND d.id = t.id
          RETURNING ${FULL_COLUMNS}, t.previous_status
       ), audit AS (
         INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, credential_type, credential_id, request_id)
         SELECT c.company_id, c.id, s.step, c.attempts - s.back, CASE WHEN s.step = 'failed' THEN $5 END, c.credential_type, c.credential_id, c.request_id
           FROM changed c CROSS JOIN (VALUES (1, 'failed', 1), (2, 'attempt', 0)) AS s(n, step, back)
          WHERE s.step = 'attempt' OR c.previous_status = 'processing'
          ORDER BY c.id, s.n
       )
       SELECT changed.*, co.name AS company_name, co.time_zone FROM changed JOIN companies co ON co.id = changed.company_id`),
      [rows.map((r) => r.company_id), rows.map((r) => r.id), rows.map((r) => r.status), leaseSeconds, LOST_ATTEMPT],
    );
    return started.map((r) => ({ document: toDocument(r), companyName: r.company_name, timeZone: r.time_zone }));
  }

  /** Waits for the earlier version: one `deferred` row, then looks again after base, twice that, … up to a minute. */
  private async defer(docs: Key[], baseSeconds: number, manager: EntityManager): Promise<void> {
    await manager.query(
      named('defer', `WITH changed AS (
         UPDATE push_documents d SET deferrals = d.deferrals + 1, updated_at = now(),
                next_attempt_at = now() + least($3::float8 * power(2, d.deferrals), greatest($3::float8, ${MAX_DEFER_SECONDS})) * interval '1 second'
           FROM unnest($1::uuid[], $2::uuid[]) AS t(company_id, id)
          WHERE d.company_id = t.company_id AND d.id = t.id
          RETURNING d.company_id, d.id, d.deferrals, d.credential_type, d.credential_id, d.request_id
       )
       INSERT INTO push_audit_log (company_id, document_id, step, details, credential_type, credential_id, request_id)
       SELECT c.company_id, c.id, 'deferred', jsonb_build_object('reason', 'an earlier version of this external_id is not processed yet'),
              c.credential_type, c.credential_id, c.request_id
         FROM changed c WHERE c.deferrals = 1`),
      [...keys(docs), baseSeconds],
    );
  }

  /** The last attempt was lost with its process: the document is a dead letter now. */
  private async deadLetterLost(docs: Key[], manager: EntityManager): Promise<PushDocument[]> {
    const rows: DocumentRow[] = await manager.query(
      `WITH changed AS (
         UPDATE push_documents d SET status = 'dead_lettered', dead_lettered_at = now(), updated_at = now(), last_error = $3
           FROM unnest($1::uuid[], $2::uuid[]) AS t(company_id, id)
          WHERE d.company_id = t.company_id AND d.id = t.id
          RETURNING ${FULL_COLUMNS}
       ), audit AS (
         INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, details, credential_type, credential_id, request_id)
         SELECT c.company_id, c.id, s.step, c.attempts, c.last_error,
                CASE WHEN s.step = 'dead_lettered' THEN jsonb_build_object('reason', 'the last attempt did not finish (timed out or the process ended)') END,
                c.credential_type, c.credential_id, c.request_id
           FROM changed c CROSS JOIN (VALUES (1, 'failed'), (2, 'dead_lettered')) AS s(n, step)
          ORDER BY c.id, s.n
       )
       SELECT * FROM changed`,
      [...keys(docs), LOST_ATTEMPT],
    );
    return rows.map(toDocument);
  }

  /**
   * Locks the claimed documents for the effect's transaction (a second run of one document waits here,
   * then finds it done) and tells, per id, its status and whether a later version of its external_id
   * was applied already (this one is stale then).
   */
  async lockForEffect(docs: PushDocument[], manager: EntityManager): Promise<Map<string, { status: string; superseded: boolean }>> {
    const rows: Array<{ id: string; status: string; superseded: boolean }> = await manager.query(
      named('lock_for_effect', `SELECT d.id, d.status, EXISTS (
                SELECT 1 FROM push_documents l
                 WHERE l.company_id = d.company_id AND l.document_type = d.document_type AND lower(l.external_id) = lower(d.external_id)
                   AND l.version > d.version AND l.status = 'processed') AS superseded
         FROM push_documents d JOIN unnest($1::uuid[], $2::uuid[]) AS t(company_id, id) ON d.company_id = t.company_id AND d.id = t.id
        ORDER BY d.company_id, d.id
        FOR UPDATE OF d`),
      keys(docs),
    );
    return new Map(rows.map((r) => [r.id, { status: r.status, superseded: r.superseded }]));
  }

  /** Marks documents processed with their `succeeded` rows; returns those a later version waits for (wake it after the commit). */
  async markProcessed(done: Succeeded[], manager: EntityManager): Promise<PushDocument[]> {
    if (done.length === 0) return [];
    const rows: Array<{ id: string }> = await manager.query(
      named('mark_processed', `WITH changed AS (
         UPDATE push_documents d SET status = 'processed', outcome = t.outcome, result_type = t.result_type,
                result_id = coalesce(t.result_id, (SELECT p.id FROM payments p WHERE p.company_id = t.company_id AND lower(p.external_id) = lower(t.entry_external_id))),
                last_error = NULL, processed_at = now(), updated_at = now()
           FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::jsonb[], $7::text[])
                AS t(company_id, id, outcome, result_type, result_id, notes, entry_external_id)
          WHERE d.company_id = t.company_id AND d.id = t.id
          RETURNING d.company_id, d.id, d.document_type, d.external_id, d.version, d.attempts, d.outcome, d.result_type, d.result_id,
                    d.credential_type, d.credential_id, d.request_id, t.notes
       ), audit AS (
         INSERT INTO push_audit_log (company_id, document_id, step, attempt, details, credential_type, credential_id, request_id)
         SELECT c.company_id, c.id, 'succeeded', c.attempts,
                jsonb_build_object('outcome', c.outcome, 'result_type', c.result_type, 'result_id', c.result_id)
                  || CASE WHEN c.notes IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('notes', c.notes) END,
                c.credential_type, c.credential_id, c.request_id
           FROM changed c
       )
       SELECT c.id FROM changed c
        WHERE EXISTS (SELECT 1 FROM push_documents s
                       WHERE s.company_id = c.company_id AND s.document_type = c.document_type AND lower(s.external_id) = lower(c.external_id)
                         AND s.version > c.version AND s.status = 'queued')`),
      [
        done.map((d) => d.document.companyId),
        done.map((d) => d.document.id),
        done.map((d) => d.outcome),
        done.map((d) => d.result?.type ?? null),
        done.map((d) => (d.result && 'id' in d.result ? d.result.id : null)),
        done.map((d) => (d.notes.length ? JSON.stringify(d.notes) : null)),
        done.map((d) => (d.result && 'entryExternalId' in d.result ? d.result.entryExternalId : null)),
      ],
    );
    const waiting = new Set(rows.map((r) => r.id));
    return done.map((d) => d.document).filter((d) => waiting.has(d.id));
  }

  /**
   * Failed attempts: each is retried after base·2^(n-1) to base·2^n seconds (n: its attempt since the
   * last replay; the jitter spreads retries of a burst), or dead-lettered now, saying why.
   */
  async markFailed(failed: Failed[], retryBaseSeconds: number): Promise<void> {
    if (failed.length === 0) return;
    await this.db.query(
      `WITH changed AS (
         UPDATE push_documents d SET status = CASE WHEN t.final THEN 'dead_lettered' ELSE 'failed' END, last_error = t.error,
                dead_lettered_at = CASE WHEN t.final THEN now() ELSE d.dead_lettered_at END, updated_at = now(),
                next_attempt_at = now() + $6::float8 * power(2, greatest(d.attempts - d.attempts_before_replay - 1, 0)) * (1 + random()) * interval '1 second'
           FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::bool[], $5::text[]) AS t(company_id, id, error, final, reason)
          WHERE d.company_id = t.company_id AND d.id = t.id AND d.status = 'processing'
          RETURNING d.company_id, d.id, d.status, d.attempts, d.last_error, d.credential_type, d.credential_id, d.request_id, t.reason
       )
       INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, details, credential_type, credential_id, request_id)
       SELECT c.company_id, c.id, s.step, c.attempts, c.last_error,
              CASE WHEN s.step = 'dead_lettered' THEN jsonb_build_object('reason', c.reason) END,
              c.credential_type, c.credential_id, c.request_id
         FROM changed c CROSS JOIN (VALUES (1, 'failed'), (2, 'dead_lettered')) AS s(n, step)
        WHERE s.step = 'failed' OR c.status = 'dead_lettered'
        ORDER BY c.id, s.n`,
      [
        failed.map((f) => f.document.companyId),
        failed.map((f) => f.document.id),
        failed.map((f) => f.error),
        failed.map((f) => f.final),
        failed.map((f) => f.reason),
        retryBaseSeconds,
      ],
    );
  }

  /** These versions finished (processed or dead-lettered): the later versions deferred behind them are due now. */
  async wakeSuccessors(docs: Array<Pick<PushDocument, 'companyId' | 'documentType' | 'externalId' | 'version'>>): Promise<void> {
    if (docs.length === 0) return;
    await this.db.query(
      `UPDATE push_documents s SET next_attempt_at = now()
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[]) AS p(company_id, document_type, external_id, version)
        WHERE s.company_id = p.company_id AND s.document_type = p.document_type AND lower(s.external_id) = lower(p.external_id)
          AND s.version > p.version AND s.status = 'queued' AND s.next_attempt_at > now()`,
      [docs.map((d) => d.companyId), docs.map((d) => d.documentType), docs.map((d) => d.externalId), docs.map((d) => d.version)],
    );
  }

  /** Deferred documents whose earlier version finished while they were being deferred: due now after all. */
  async wakeIfFree(docs: Key[]): Promise<void> {
    if (docs.length === 0) return;
    await this.db.query(
      `UPDATE push_documents d SET next_attempt_at = now()
         FROM unnest($1::uuid[], $2::uuid[]) AS t(company_id, id)
        WHERE d.company_id = t.company_id AND d.id = t.id AND d.status IN ('queued', 'failed') AND d.next_attempt_at > now()
          AND NOT ${PENDING_PREDECESSOR}`,
      keys(docs),
    );
  }
}
