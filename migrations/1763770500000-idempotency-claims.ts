import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency keys become claims with a token and a lease: a key whose request died is taken over
 * by a retry after the lease, and a request whose key was taken over cannot store its answer (its
 * transaction rolls back). Request hashes become HMACs: the plain SHA-256 of a body that carried
 * secrets (ERP connection passwords) is dropped; such a row still replays its answer until it expires,
 * without the body comparison.
 */
export class IdempotencyClaims1763770500000 implements MigrationInterface {
  name = 'IdempotencyClaims1763770500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ALTER COLUMN request_hash DROP NOT NULL`);
    await q.query(`UPDATE idempotency_keys SET request_hash = NULL`);
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN claim_token uuid, ADD COLUMN claimed_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`UPDATE idempotency_keys SET claimed_at = created_at`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM idempotency_keys WHERE request_hash IS NULL`);
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN claim_token, DROP COLUMN claimed_at, ALTER COLUMN request_hash SET NOT NULL`);
  }
}
