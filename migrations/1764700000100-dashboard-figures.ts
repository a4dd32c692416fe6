import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The web dashboard's figures (src/web/dashboard): one pass over a company's open invoices, grouped by
 * stage and aging bucket, reads only this partial index (company, then status, due date and open amount
 * INCLUDEd: an index-only scan of the open invoices instead of the whole table), and the "needs you"
 * count of invoices blocked for dunning finds the few blocked ones by the second. Measured with 100,000
 * invoices of one company (bench: web): the dashboard's PostgreSQL CPU per request 199 ms → see bench/README.md.
 * The status list is the open statuses of src/invoices/invoice-status.ts as of this migration; the
 * dashboard's statement writes the same list as literals, so the planner proves the index applies.
 */
export class DashboardFigures1764700000100 implements MigrationInterface {
  name = 'DashboardFigures1764700000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX invoices_open_figures_idx ON invoices (company_id) INCLUDE (status, due_date, open_amount)
        WHERE status IN ('sent', 'due', 'ready_for_reminder1', 'reminder1_sent', 'ready_for_reminder2', 'reminder2_sent',
                         'ready_for_reminder3', 'reminder3_sent', 'ready_for_dept_collection', 'sent_to_dept_collection')`,
    );
    await q.query(
      `CREATE INDEX invoices_dunning_blocked_idx ON invoices (company_id) INCLUDE (status, dunning_block_until)
        WHERE dunning_block_reason IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX invoices_dunning_blocked_idx');
    await q.query('DROP INDEX invoices_open_figures_idx');
  }
}
