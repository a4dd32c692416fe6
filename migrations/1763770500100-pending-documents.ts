import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Files announced before they are stored: the write that references them removes the row in its own
 * transaction, so a row left behind names files of a write that never committed (a crash between
 * storing and committing). An hourly job deletes those files and rows after a grace period.
 */
export class PendingDocuments1763770500100 implements MigrationInterface {
  name = 'PendingDocuments1763770500100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE pending_documents (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        keys text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id)
      )`);
    await q.query(`CREATE INDEX pending_documents_created_idx ON pending_documents (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE pending_documents`);
  }
}
