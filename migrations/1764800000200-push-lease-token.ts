import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The owner of a pushed document's current attempt (issue 22: lease heartbeat). Each claim writes a new
 * token; the heartbeat renews only the lease its token holds, and the effect's statements act only on
 * documents still held by that token, so an attempt that lost its lease commits nothing.
 */
export class PushLeaseToken1764800000200 implements MigrationInterface {
  name = 'PushLeaseToken1764800000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE push_documents ADD COLUMN lease_token uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE push_documents DROP COLUMN lease_token`);
  }
}
