import PgBoss from 'pg-boss';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The durable job queue's tables (pg-boss, schema `pgboss`), created here so that the schema comes
 * only from migrations; pg-boss itself starts with migrate: false. Its plan manages its own
 * transaction and advisory lock, hence no TypeORM transaction around it.
 */
export class JobQueue1763769900000 implements MigrationInterface {
  name = 'JobQueue1763769900000';
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    await q.query(PgBoss.getConstructionPlans('pgboss'));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP SCHEMA pgboss CASCADE');
  }
}
