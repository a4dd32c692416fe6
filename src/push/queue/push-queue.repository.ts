// SQL of the outcome of an attempt: the claimed documents locked for their effect, then marked
// processed (with the effect, in its transaction) or failed (retried later or dead-lettered), and the
// later versions waiting behind them woken. Every step is set-based over the batch, keyed by the
// documents' company_id and id, and writes its audit rows in the same statement.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import type { ProducedRecord } from '../processors/processor.js';
import type { Outcome, PushDocument } from '../push-document.js';
import { type Key, keys, PENDING_PREDECESSOR } from './push-claims.repository.js';

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

export interface EffectLock {
  /** Still `processing` under this attempt's lease: not done by another run, not taken over by another replica. */
  ours: boolean;
  /** A later version of its external_id was applied already: this one is stale. */
  superseded: boolean;
}

// Prepared (the default), as every statement each pushed document runs: for these CTEs planning cost
// about as much as executing. They run in the batch's transaction with custom plans (PushBatch).
const LOCK_FOR_EFFECT = statement<{ id: string; ours: boolean; superseded: boolean }>(
  'push.lock_for_effect',
  `SELECT d.id, d.status = 'processing' AND d.lease_token = $3 AS ours, EXISTS (
          SELECT 1 FROM push_documents l
           WHERE l.company_id = d.company_id AND l.document_type = d.document_type AND lower(l.external_id) = lower(d.external_id)
             AND l.version > d.version AND l.status = 'processed') AS superseded
     FROM push_documents d JOIN unnest($1::uuid[], $2::uuid[]) AS t(company_id, id) ON d.company_id = t.company_id AND d.id = t.id
    ORDER BY d.company_id, d.id
      FOR UPDATE OF d`,
);
const MARK_PROCESSED = statement<{ id: string; waiting: boolean }>(
  'push.mark_processed',
  `WITH changed AS (
     UPDATE push_documents d SET status = 'processed', outcome = t.outcome, result_type = t.result_type,
            result_id = coalesce(t.result_id, (SELECT p.id FROM payments p WHERE p.company_id = t.company_id AND lower(p.external_id) = lower(t.entry_external_id))),
            last_error = NULL, processed_at = now(), updated_at = now()
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::jsonb[], $7::text[])
            AS t(company_id, id, outcome, result_type, result_id, notes, entry_external_id)
      WHERE d.company_id = t.company_id AND d.id = t.id AND d.lease_token = $8
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
   SELECT c.id, EXISTS (SELECT 1 FROM push_documents s
                         WHERE s.company_id = c.company_id AND s.document_type = c.document_type AND lower(s.external_id) = lower(c.external_id)
                           AND s.version > c.version AND s.status = 'queued') AS waiting
     FROM changed c`,
);

// The next three run on the pool after a batch, outside its transaction, and were never prepared: they
// stay planned with their actual values each time (custom). They are set-based over the queue, which
// grows in a burst, where a generic plan made while it was nearly empty stayed a sequential scan per
// batch until the next autoanalyze (see claim()).
const MARK_FAILED = statement(
  'push.mark_failed',
  `WITH changed AS (
     UPDATE push_documents d SET status = CASE WHEN t.final THEN 'dead_lettered' ELSE 'failed' END, last_error = t.error,
            dead_lettered_at = CASE WHEN t.final THEN now() ELSE d.dead_lettered_at END, updated_at = now(),
            next_attempt_at = now() + $6::float8 * power(2, greatest(d.attempts - d.attempts_before_replay - 1, 0)) * (1 + random()) * interval '1 second'
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::bool[], $5::text[]) AS t(company_id, id, error, final, reason)
      WHERE d.company_id = t.company_id AND d.id = t.id AND d.status = 'processing' AND d.lease_token = $7
      RETURNING d.company_id, d.id, d.status, d.attempts, d.last_error, d.credential_type, d.credential_id, d.request_id, t.reason
   )
   INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, details, credential_type, credential_id, request_id)
   SELECT c.company_id, c.id, s.step, c.attempts, c.last_error,
          CASE WHEN s.step = 'dead_lettered' THEN jsonb_build_object('reason', c.reason) END,
          c.credential_type, c.credential_id, c.request_id
     FROM changed c CROSS JOIN (VALUES (1, 'failed'), (2, 'dead_lettered')) AS s(n, step)
    WHERE s.step = 'failed' OR c.status = 'dead_lettered'
    ORDER BY c.id, s.n`,
  { plan: 'custom' },
);
const WAKE_SUCCESSORS = statement(
  'push.wake_successors',
  `UPDATE push_documents s SET next_attempt_at = now()
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[]) AS p(company_id, document_type, external_id, version)
    WHERE s.company_id = p.company_id AND s.document_type = p.document_type AND lower(s.external_id) = lower(p.external_id)
      AND s.version > p.version AND s.status = 'queued' AND s.next_attempt_at > now()`,
  { plan: 'custom' },
);
const WAKE_IF_FREE = statement(
  'push.wake_if_free',
  `UPDATE push_documents d SET next_attempt_at = now()
     FROM unnest($1::uuid[], $2::uuid[]) AS t(company_id, id)
    WHERE d.company_id = t.company_id AND d.id = t.id AND d.status IN ('queued', 'failed') AND d.next_attempt_at > now()
      AND NOT ${PENDING_PREDECESSOR}`,
  { plan: 'custom' },
);

/**
 * The heartbeat of a batch. SKIP LOCKED: a row under the batch's own effect lock is left as it is, and
 * the count of rows still carrying the token (a plain read, whatever their lock or status) tells the
 * worker whether another claim took any over.
 */
const RENEW_LEASE = statement<{ held: number; renewed: number }>(
  'push.renew_lease',
  `WITH held AS (
     SELECT d.company_id, d.id FROM push_documents d JOIN unnest($1::uuid[], $2::uuid[]) AS t(company_id, id) ON d.company_id = t.company_id AND d.id = t.id
      WHERE d.lease_token = $3
   ), free AS (
     SELECT d.company_id, d.id FROM push_documents d JOIN held h ON d.company_id = h.company_id AND d.id = h.id
      WHERE d.status = 'processing' AND d.lease_token = $3
        FOR NO KEY UPDATE OF d SKIP LOCKED
   ), renewed AS (
     UPDATE push_documents d SET next_attempt_at = now() + $4::float8 * interval '1 second'
       FROM free f WHERE d.company_id = f.company_id AND d.id = f.id
     RETURNING d.id
   )
   SELECT (SELECT count(*) FROM held)::int AS held, (SELECT count(*) FROM renewed)::int AS renewed`,
);

/** A document's lease was taken over before the effect committed: the batch's transaction is rolled back. */
export class LeaseLost extends Error {
  constructor(count: number) {
    super(`${count} document(s) of the batch lost their lease before the effect committed`);
  }
}

@Injectable()
export class PushQueueRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Locks the claimed documents for the effect's transaction (a second run of one document waits here,
   * then finds it done) and tells, per id, its status and whether a later version of its external_id
   * was applied already (this one is stale then).
   */
  async lockForEffect(docs: PushDocument[], lease: string, manager: EntityManager): Promise<Map<string, EffectLock>> {
    const rows = await this.sql.rows(LOCK_FOR_EFFECT, [...keys(docs), lease], manager);
    return new Map(rows.map((r) => [r.id, { ours: r.ours, superseded: r.superseded }]));
  }

  /**
   * Marks documents processed with their `succeeded` rows, only while the lease still holds them;
   * returns those a later version waits for (wake it after the commit). A document no longer held
   * (which lockForEffect's row lock rules out) fails the whole transaction, so its effect is not committed.
   */
  async markProcessed(done: Succeeded[], lease: string, manager: EntityManager): Promise<PushDocument[]> {
    if (done.length === 0) return [];
    const rows = await this.sql.rows(
      MARK_PROCESSED,
      [
        done.map((d) => d.document.companyId),
        done.map((d) => d.document.id),
        done.map((d) => d.outcome),
        done.map((d) => d.result?.type ?? null),
        done.map((d) => (d.result && 'id' in d.result ? d.result.id : null)),
        done.map((d) => (d.notes.length ? JSON.stringify(d.notes) : null)),
        done.map((d) => (d.result && 'entryExternalId' in d.result ? d.result.entryExternalId : null)),
        lease,
      ],
      manager,
    );
    if (rows.length !== done.length) throw new LeaseLost(done.length - rows.length);
    const waiting = new Set(rows.filter((r) => r.waiting).map((r) => r.id));
    return done.map((d) => d.document).filter((d) => waiting.has(d.id));
  }

  /**
   * Failed attempts: each is retried after base·2^(n-1) to base·2^n seconds (n: its attempt since the
   * last replay; the jitter spreads retries of a burst), or dead-lettered now, saying why.
   */
  async markFailed(failed: Failed[], retryBaseSeconds: number, lease: string): Promise<void> {
    if (failed.length === 0) return;
    await this.sql.run(MARK_FAILED, [
      failed.map((f) => f.document.companyId),
      failed.map((f) => f.document.id),
      failed.map((f) => f.error),
      failed.map((f) => f.final),
      failed.map((f) => f.reason),
      retryBaseSeconds,
      lease,
    ]);
  }

  /**
   * Renews the lease of the batch's documents that it still holds and that are not locked: those locked
   * by the batch's own transaction need no renewal (a claim skips locked rows) and must not make the
   * heartbeat wait for that transaction. Returns how many of them are held by the lease still.
   */
  async renewLease(docs: Key[], lease: string, leaseSeconds: number): Promise<number> {
    const [row] = await this.sql.rows(RENEW_LEASE, [...keys(docs), lease, leaseSeconds]);
    return row?.held ?? 0;
  }

  /** These versions finished (processed or dead-lettered): the later versions deferred behind them are due now. */
  async wakeSuccessors(docs: Array<Pick<PushDocument, 'companyId' | 'documentType' | 'externalId' | 'version'>>): Promise<void> {
    if (docs.length === 0) return;
    await this.sql.run(WAKE_SUCCESSORS, [
      docs.map((d) => d.companyId),
      docs.map((d) => d.documentType),
      docs.map((d) => d.externalId),
      docs.map((d) => d.version),
    ]);
  }

  /** Deferred documents whose earlier version finished while they were being deferred: due now after all. */
  async wakeIfFree(docs: Key[]): Promise<void> {
    if (docs.length === 0) return;
    await this.sql.run(WAKE_IF_FREE, keys(docs));
  }
}
