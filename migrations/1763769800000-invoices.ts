import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Invoices with their documents, payments, reminders and the history of their status. */
export class Invoices1763769800000 implements MigrationInterface {
  name = 'Invoices1763769800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE invoices (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        external_id text,
        customer_id uuid NOT NULL,
        contact_id uuid,
        invoice_number text,
        additional_number text,
        status text NOT NULL DEFAULT 'draft',
        -- the status an invoice had when it became paid, to return to if a payment is deleted
        status_before_paid text,
        original_total numeric(14,2) NOT NULL DEFAULT 0,
        reminder_fees numeric(14,2) NOT NULL DEFAULT 0,
        paid_amount numeric(14,2) NOT NULL DEFAULT 0,
        open_amount numeric(14,2) NOT NULL DEFAULT 0,
        net numeric(14,2),
        vat7 numeric(14,2),
        vat19 numeric(14,2),
        order_date date,
        invoice_date date,
        due_date date,
        time_for_payment integer,
        source text NOT NULL DEFAULT 'API',
        shipping_mode text,
        ignore_reminder_fees boolean NOT NULL DEFAULT false,
        written_off_at timestamptz,
        pdf_key text,
        pdf_size bigint,
        pdf_sha256 bytea,
        attachment_key text,
        attachment_size bigint,
        attachment_sha256 bytea,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, customer_id) REFERENCES customers (company_id, id),
        FOREIGN KEY (company_id, contact_id) REFERENCES contacts (company_id, id),
        CHECK (open_amount = original_total + reminder_fees - paid_amount)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX invoices_external_id_key ON invoices (company_id, lower(external_id)) WHERE external_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX invoices_list_idx ON invoices (company_id, created_at, id)`);
    await q.query(`CREATE INDEX invoices_customer_idx ON invoices (company_id, customer_id)`);
    await q.query(`CREATE INDEX invoices_status_idx ON invoices (company_id, status, due_date)`);
    await q.query(`CREATE INDEX invoices_updated_idx ON invoices (company_id, updated_at)`);
    await q.query(`
      CREATE TABLE payments (
        company_id uuid NOT NULL,
        id uuid NOT NULL,
        invoice_id uuid NOT NULL,
        external_id text,
        amount numeric(14,2) NOT NULL,
        payment_date date NOT NULL,
        note text,
        source text NOT NULL DEFAULT 'API',
        inkasso_payment boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, invoice_id) REFERENCES invoices (company_id, id)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX payments_external_id_key ON payments (company_id, lower(external_id)) WHERE external_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX payments_invoice_idx ON payments (company_id, invoice_id, created_at)`);
    await q.query(`
      CREATE TABLE reminders (
        company_id uuid NOT NULL,
        id uuid NOT NULL,
        invoice_id uuid NOT NULL,
        reminder_stage smallint NOT NULL CHECK (reminder_stage BETWEEN 1 AND 3),
        reminder_date date NOT NULL,
        last_sent_at timestamptz,
        shipping_mode text,
        fees numeric(14,2) NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, invoice_id) REFERENCES invoices (company_id, id),
        UNIQUE (company_id, invoice_id, reminder_stage)
      )`);
    await q.query(`
      CREATE TABLE invoice_events (
        company_id uuid NOT NULL,
        id bigint GENERATED ALWAYS AS IDENTITY,
        invoice_id uuid NOT NULL,
        kind text NOT NULL,
        from_status text,
        to_status text,
        actor_type text NOT NULL,
        actor_id text,
        reason text,
        details jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, invoice_id) REFERENCES invoices (company_id, id)
      )`);
    await q.query(`CREATE INDEX invoice_events_invoice_idx ON invoice_events (company_id, invoice_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE invoice_events, reminders, payments, invoices`);
  }
}
