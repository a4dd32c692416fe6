// SQL of claiming from the processing queue: push_documents is its own queue (a pending status and
// next_attempt_at, partial index push_documents_due_idx). Workers claim due documents in batches with
// FOR UPDATE SKIP LOCKED, so replicas never take the same one; every step is set-based and writes its
// audit rows in the same statement.
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import { type DocumentRow, FULL_COLUMNS, toDocument } from '../documents/push-document-rows.js';
import type { PushDocument } from '../push-document.js';

/** A document whose attempt has started: with its company's name and time zone for the processor. */
export interface ClaimedDocument {
  document: PushDocument;
  companyName: string;
  timeZone: string;
}

export interface QueuePolicy {
  /** Attempts after the first one (since the last replay). */
  retryLimit: number;
  /** The lease of an attempt, renewed by its heartbeat: a document still `processing` after it lost its attempt (its process ended). */
  leaseSeconds: number;
  /** The first wait behind an earlier version; doubled on each further look, up to MAX_DEFER_SECONDS. */
  deferSeconds: number;
}

export type Key = Pick<PushDocument, 'companyId' | 'id'>;
export const keys = (docs: Key[]) => [docs.map((d) => d.companyId), docs.map((d) => d.id)];

/** An earlier version of the same (document_type, external_id) that is not done yet. */
export const PENDING_PREDECESSOR = `EXISTS (
  SELECT 1 FROM push_documents p
   WHERE p.company_id = d.company_id AND p.document_type = d.document_type AND lower(p.external_id) = lower(d.external_id)
     AND p.version < d.version AND p.status IN ('queued', 'processing', 'failed'))`;

/** The longest wait between two looks of a deferred document (the earlier version usually wakes it sooner). */
const MAX_DEFER_SECONDS = 60;
const LOST_ATTEMPT = 'the attempt did not finish: its process ended or stopped renewing its lease (PUSH_LEASE_SECONDS)';

interface DueRow {
  company_id: string;
  id: string;
  status: string;
  tries: number;
  waits: boolean;
}

/** A document a worker may take now: new, failed and due for its retry, or processing past its lease (push_documents_due_idx). */
const DUE = `d.status IN ('queued', 'processing', 'failed') AND d.next_attempt_at <= now()`;
// The statements every pushed document runs are prepared (the default): for these CTEs planning cost
// about as much as executing. They run in claim()'s transaction with custom plans (see there).
const CLAIM = statement<DueRow>(
  'push.claim',
  `SELECT d.company_id, d.id, d.status, d.attempts - d.attempts_before_replay AS tries, ${PENDING_PREDECESSOR} AS waits
     FROM push_documents d
    WHERE ${DUE}
    ORDER BY d.next_attempt_at LIMIT $1 FOR UPDATE OF d SKIP LOCKED`,
  { crossTenant: 'the worker claims the due documents of every company; each later step is keyed by the company_id of the claimed rows' },
);
/** Whether anything is due, without a transaction or a lock: what an idle worker asks before it claims. */
const ANY_DUE = statement<{ due: boolean }>('push.any_due', `SELECT EXISTS (SELECT 1 FROM push_documents d WHERE ${DUE}) AS due`, {
  crossTenant: 'the worker looks for due documents of every company; it reads no column of them',
});
const START = statement<DocumentRow & { previous_status: string; company_name: string; time_zone: string }>(
  'push.start',
  `WITH changed AS (
     UPDATE push_documents d SET status = 'processing', attempts = d.attempts + 1, updated_at = now(), lease_token = $6,
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
   SELECT changed.*, co.name AS company_name, co.time_zone FROM changed JOIN companies co ON co.id = changed.company_id`,
);
const DEFER = statement(
  'push.defer',
  `WITH changed AS (
     UPDATE push_documents d SET deferrals = d.deferrals + 1, updated_at = now(),
            next_attempt_at = now() + least($3::float8 * power(2, d.deferrals), greatest($3::float8, ${MAX_DEFER_SECONDS})) * interval '1 second'
       FROM unnest($1::uuid[], $2::uuid[]) AS t(company_id, id)
      WHERE d.company_id = t.company_id AND d.id = t.id
      RETURNING d.company_id, d.id, d.deferrals, d.credential_type, d.credential_id, d.request_id
   )
   INSERT INTO push_audit_log (company_id, document_id, step, details, credential_type, credential_id, request_id)
   SELECT c.company_id, c.id, 'deferred', jsonb_build_object('reason', 'an earlier version of this external_id is not processed yet'),
          c.credential_type, c.credential_id, c.request_id
     FROM changed c WHERE c.deferrals = 1`,
);
const DEAD_LETTER_LOST = statement<DocumentRow>(
  'push.dead_letter_lost',
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
);

@Injectable()
export class PushClaimsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Whether a claim would find a due document now (one statement on the partial index). An idle worker's
   * poll asks this first: a claim is a transaction of four round trips with a custom plan, and most polls
   * of an idle replica find nothing.
   */
  async anyDue(): Promise<boolean> {
    return (await this.sql.one(ANY_DUE)).due;
  }

  /**
   * Claims up to `limit` due documents in one transaction and starts their attempt (status
   * `processing`, attempts + 1, the lease as next_attempt_at, an `attempt` row; a lost previous
   * attempt gets its `failed` row first). A document whose earlier version is pending waits instead
   * (one `deferred` row, growing delays); one that lost its last attempt is dead-lettered. Returns the
   * started documents with the token of their lease (one for the batch), and the deferred ones (to look
   * at again once this commit is visible).
   */
  async claim(
    limit: number,
    policy: QueuePolicy,
  ): Promise<{ started: ClaimedDocument[]; lease: string; deferred: Key[]; deadLettered: PushDocument[] }> {
    const lease = randomUUID();
    // Custom plans: the queue grows in a burst, and a generic plan made while it was nearly empty stayed
    // a sequential scan per batch over a queue of thousands until the next autoanalyze.
    return this.sql.transaction(
      async (manager) => {
        const due = await this.sql.rows(CLAIM, [limit], manager);
        const key = (r: DueRow) => ({ companyId: r.company_id, id: r.id });
        const deferred = due.filter((r) => r.waits).map(key);
        const lost = due.filter((r) => !r.waits && r.status === 'processing' && r.tries > policy.retryLimit);
        const start = due.filter((r) => !r.waits && !lost.includes(r));
        if (deferred.length) await this.defer(deferred, policy.deferSeconds, manager);
        const deadLettered = lost.length ? await this.deadLetterLost(lost.map(key), manager) : [];
        const started = start.length ? await this.start(start, policy.leaseSeconds, lease, manager) : [];
        return { started, lease, deferred, deadLettered };
      },
      { customPlans: true },
    );
  }

  private async start(rows: DueRow[], leaseSeconds: number, lease: string, manager: EntityManager): Promise<ClaimedDocument[]> {
    const started = await this.sql.rows(
      START,
      [rows.map((r) => r.company_id), rows.map((r) => r.id), rows.map((r) => r.status), leaseSeconds, LOST_ATTEMPT, lease],
      manager,
    );
    // In the order claimed (oldest due first): an UPDATE's RETURNING has no order, and a batch applies its
    // documents in the order given (two payments on one invoice were booked in either order: CI, push-bulk).
    const place = new Map(rows.map((r, i) => [r.id, i]));
    return started
      .sort((a, b) => place.get(a.id)! - place.get(b.id)!)
      .map((r) => ({ document: toDocument(r), companyName: r.company_name, timeZone: r.time_zone }));
  }

  /** Waits for the earlier version: one `deferred` row, then looks again after base, twice that, … up to a minute. */
  private async defer(docs: Key[], baseSeconds: number, manager: EntityManager): Promise<void> {
    await this.sql.run(DEFER, [...keys(docs), baseSeconds], manager);
  }

  /** The last attempt was lost with its process: the document is a dead letter now. */
  private async deadLetterLost(docs: Key[], manager: EntityManager): Promise<PushDocument[]> {
    const rows = await this.sql.rows(DEAD_LETTER_LOST, [...keys(docs), LOST_ATTEMPT], manager);
    return rows.map(toDocument);
  }
}
