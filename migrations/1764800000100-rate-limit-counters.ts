import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rate-limit counters every replica shares (issue 22): one row per key, overwritten when its window
 * is over (src/http/rate-limits/rate-limit.store.ts). UNLOGGED: a counter is worth no WAL write, and after
 * a crash PostgreSQL empties the table, which only starts every window anew. No index beside the key:
 * the hourly sweep reads the small table whole, and a counter's update stays HOT.
 */
export class RateLimitCounters1764800000100 implements MigrationInterface {
  name = 'RateLimitCounters1764800000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE rate_limit_counters (
        key text PRIMARY KEY,
        points integer NOT NULL,
        granted integer NOT NULL,
        window_ends_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rate_limit_counters`);
  }
}
