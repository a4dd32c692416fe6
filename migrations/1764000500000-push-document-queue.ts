import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pushed documents are their own processing queue: a document is due when its status is pending and
 * next_attempt_at has passed (a retry's backoff, a deferral behind an earlier version, or the lease of
 * an attempt under way). Workers claim due documents in batches with FOR UPDATE SKIP LOCKED instead of
 * one pg-boss job per document. attempts_before_replay counts the attempts before the last replay
 * (a replayed dead letter gets fresh retries); deferrals how often it waited for an earlier version.
 */
export class PushDocumentQueue1764000500000 implements MigrationInterface {
  name = 'PushDocumentQueue1764000500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE push_documents
        ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN attempts_before_replay integer NOT NULL DEFAULT 0,
        ADD COLUMN deferrals integer NOT NULL DEFAULT 0`);
    // Documents pending now are due at once; their pg-boss jobs are not needed any more.
    await q.query(`UPDATE push_documents SET attempts_before_replay = attempts WHERE status IN ('queued', 'processing', 'failed') AND attempts > 0
                     AND EXISTS (SELECT 1 FROM push_audit_log a WHERE a.company_id = push_documents.company_id AND a.document_id = push_documents.id AND a.step = 'replayed')`);
    await q.query(`DELETE FROM pgboss.job WHERE name IN ('push-documents', 'push-documents-dead')`);
    await q.query(
      `CREATE INDEX push_documents_due_idx ON push_documents (next_attempt_at) WHERE status IN ('queued', 'processing', 'failed')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX push_documents_due_idx`);
    await q.query(`ALTER TABLE push_documents DROP COLUMN next_attempt_at, DROP COLUMN attempts_before_replay, DROP COLUMN deferrals`);
  }
}
