// SQL for remembered POST answers. A key is claimed (with a token) before the work runs, so two
// concurrent retries cannot both do it. Answers are kept for 24 hours after the first request; a claim
// whose request died is taken over by the same request after a lease; the hourly sweep deletes the rest.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';

export interface RememberedRequest {
  /** Null for rows from before request hashes were HMACs: they replay without the body comparison. */
  requestHash: Buffer | null;
  statusCode: number | null;
  responseBody: unknown;
}

export interface ClaimRef {
  companyId: string;
  key: string;
  token: string;
}

export const RETENTION_HOURS = 24;
/**
 * A claim without an answer this long after it was taken belongs to a request that died (crash,
 * deploy, OOM): far above any request's work after its upload (database waits are bounded by the
 * pool's timeouts), short enough for a client's retry schedule.
 */
export const LEASE_SECONDS = 120;
/** Rows deleted per statement of the sweep: short statements, no long lock on the table. */
const SWEEP_BATCH = 5_000;

/** Takes the key: a new one, an expired one, or one whose claim by the same request outlived its lease. */
const CLAIM = statement<{ key: string }>(
  'idempotency.claim',
  `INSERT INTO idempotency_keys (company_id, key, request_hash, claim_token) VALUES ($1, $2, $3, $4)
   ON CONFLICT (company_id, key) DO UPDATE
     SET request_hash = excluded.request_hash, claim_token = excluded.claim_token, claimed_at = now(), created_at = now(),
         status_code = NULL, response_body = NULL, completed_at = NULL
     WHERE idempotency_keys.created_at < now() - make_interval(hours => $5)
        OR (idempotency_keys.status_code IS NULL AND idempotency_keys.claimed_at < now() - make_interval(secs => $6)
            AND (idempotency_keys.request_hash IS NULL OR idempotency_keys.request_hash = excluded.request_hash))
   RETURNING key`,
);
const FIND = statement<{ request_hash: Buffer | null; status_code: number | null; response_body: unknown }>(
  'idempotency.find',
  'SELECT request_hash, status_code, response_body FROM idempotency_keys WHERE company_id = $1 AND key = $2',
);
const COMPLETE = statement(
  'idempotency.complete',
  `UPDATE idempotency_keys SET status_code = $4, response_body = $5, completed_at = now()
   WHERE company_id = $1 AND key = $2 AND claim_token = $3 AND status_code IS NULL`,
);
const RELEASE = statement(
  'idempotency.release',
  'DELETE FROM idempotency_keys WHERE company_id = $1 AND key = $2 AND claim_token = $3 AND status_code IS NULL',
);
/** Planned with its actual values each time, as before: an hourly batch, whose plan should follow the table's current size. */
const SWEEP_EXPIRED = statement(
  'idempotency.sweep_expired',
  `DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(
     SELECT ctid FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) LIMIT $2))`,
  { plan: 'custom', crossTenant: 'the hourly sweep deletes the expired keys of every company' },
);

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Claims the key for this request: a new key, an expired one, or one whose claim by the same
   * request outlived its lease. Returns the earlier record when the key is taken.
   */
  async claim(claim: ClaimRef, requestHash: Buffer): Promise<RememberedRequest | undefined> {
    const taken = await this.sql.rows(CLAIM, [claim.companyId, claim.key, requestHash, claim.token, RETENTION_HOURS, LEASE_SECONDS]);
    if (taken.length > 0) return undefined;
    const row = await this.sql.first(FIND, [claim.companyId, claim.key]);
    if (!row) return this.claim(claim, requestHash); // swept in between
    return { requestHash: row.request_hash, statusCode: row.status_code, responseBody: row.response_body };
  }

  /**
   * Stores the answer of the claim, with a manager inside the transaction of the work it answers.
   * False when the claim is no longer this request's (a retry took it over after the lease).
   */
  async complete(claim: ClaimRef, statusCode: number, body: unknown, manager?: EntityManager): Promise<boolean> {
    return (await this.sql.affected(COMPLETE, [claim.companyId, claim.key, claim.token, statusCode, JSON.stringify(body)], manager)) > 0;
  }

  /** The work failed and changed nothing: the key is free for the next try. */
  async release(claim: ClaimRef): Promise<void> {
    await this.sql.run(RELEASE, [claim.companyId, claim.key, claim.token]);
  }

  /** Deletes the keys past their retention, in short batches; returns how many. */
  async sweepExpired(): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.sql.affected(SWEEP_EXPIRED, [RETENTION_HOURS, SWEEP_BATCH]);
      total += deleted;
      if (deleted < SWEEP_BATCH) return total;
    }
  }
}
