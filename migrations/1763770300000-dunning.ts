import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The dunning engine: per-company policy, recorded runs, dunning blocks, customer type, waived amounts. */
export class Dunning1763770300000 implements MigrationInterface {
  name = 'Dunning1763770300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dunning_policies (
        company_id uuid PRIMARY KEY REFERENCES companies(id),
        policy jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE dunning_runs (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        business_date date NOT NULL,
        trigger text NOT NULL,
        status text NOT NULL,
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        duration_ms integer,
        transitions jsonb NOT NULL DEFAULT '{}',
        reminders_created integer NOT NULL DEFAULT 0,
        fees_planned numeric(14,2) NOT NULL DEFAULT 0,
        errors jsonb NOT NULL DEFAULT '[]',
        PRIMARY KEY (company_id, id)
      )`);
    // The scheduler runs each business date once per company, whatever the number of replicas;
    // a failed scheduled run does not count, so the next tick tries again.
    await q.query(
      `CREATE UNIQUE INDEX dunning_runs_scheduled_key ON dunning_runs (company_id, business_date) WHERE trigger = 'schedule' AND status <> 'failed'`,
    );
    await q.query(`CREATE INDEX dunning_runs_list_idx ON dunning_runs (company_id, started_at DESC)`);
    await q.query(
      `ALTER TABLE customers ADD COLUMN customer_type text NOT NULL DEFAULT 'business' CHECK (customer_type IN ('business', 'consumer'))`,
    );
    await q.query(`ALTER TABLE invoices ADD COLUMN dunning_block_reason text, ADD COLUMN dunning_block_until date`);
    await q.query(`ALTER TABLE invoices ADD COLUMN waived_amount numeric(14,2) NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE invoices DROP CONSTRAINT invoices_check`);
    await q.query(
      `ALTER TABLE invoices ADD CONSTRAINT invoices_open_amount_check CHECK (open_amount = original_total + reminder_fees - paid_amount - waived_amount)`,
    );
    await q.query(`ALTER TABLE reminders ADD COLUMN run_id uuid, ADD COLUMN dispatched_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reminders DROP COLUMN run_id, DROP COLUMN dispatched_at`);
    await q.query(`ALTER TABLE invoices DROP CONSTRAINT invoices_open_amount_check`);
    await q.query(`ALTER TABLE invoices DROP COLUMN waived_amount, DROP COLUMN dunning_block_reason, DROP COLUMN dunning_block_until`);
    await q.query(`ALTER TABLE invoices ADD CONSTRAINT invoices_check CHECK (open_amount = original_total + reminder_fees - paid_amount)`);
    await q.query(`ALTER TABLE customers DROP COLUMN customer_type`);
    await q.query(`DROP TABLE dunning_runs, dunning_policies`);
  }
}
