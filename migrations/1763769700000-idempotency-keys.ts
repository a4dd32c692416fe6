import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Remembered answers to POST requests that carried an Idempotency-Key. */
export class IdempotencyKeys1763769700000 implements MigrationInterface {
  name = 'IdempotencyKeys1763769700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        company_id uuid NOT NULL REFERENCES companies(id),
        key text NOT NULL,
        request_hash bytea NOT NULL,
        status_code integer,
        response_body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        PRIMARY KEY (company_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
