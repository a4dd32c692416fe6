import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shipping: per-company shipping settings, one shipment per decision to ship a document (an invoice or
 * a reminder), and one delivery row per attempt on a channel. Every lookup index leads with company_id.
 */
export class Shipping1763770000000 implements MigrationInterface {
  name = 'Shipping1763770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE shipping_settings (
        company_id uuid PRIMARY KEY REFERENCES companies(id),
        settings jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE shipments (
        company_id uuid NOT NULL REFERENCES companies(id),
        id uuid NOT NULL,
        invoice_id uuid NOT NULL,
        reminder_id uuid,
        document text NOT NULL CHECK (document IN ('invoice', 'reminder')),
        shipping_mode text NOT NULL,
        -- the level the mode came from: reminder, invoice, customer or company (null: unknown everywhere)
        mode_source text,
        status text NOT NULL CHECK (status IN ('pending', 'awaiting_confirmation', 'shipped', 'failed', 'cancelled', 'needs_attention', 'skipped')),
        -- per channel: null when the mode does not use it
        email_status text CHECK (email_status IN ('pending', 'delivered', 'failed', 'cancelled')),
        post_status text CHECK (post_status IN ('pending', 'delivered', 'failed', 'cancelled')),
        -- why someone has to look at it (nothing shipped, or a channel failed); null when all is well
        attention text,
        -- the Message-ID every attempt of the e-mail carries, so receivers can drop duplicates
        message_id text,
        -- the letter as rendered for this shipment, in the document store
        letter_key text,
        actor_type text NOT NULL,
        actor_id text,
        reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, invoice_id) REFERENCES invoices (company_id, id),
        FOREIGN KEY (company_id, reminder_id) REFERENCES reminders (company_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX shipments_invoice_idx ON shipments (company_id, invoice_id, created_at)`);
    // At most one shipment of a document under way: a second release or a repeated call waits for it.
    await q.query(`
      CREATE UNIQUE INDEX shipments_open_key ON shipments (company_id, invoice_id, (coalesce(reminder_id, '00000000-0000-0000-0000-000000000000'::uuid)))
      WHERE status IN ('pending', 'awaiting_confirmation')`);
    await q.query(`CREATE INDEX shipments_attention_idx ON shipments (company_id, created_at) WHERE attention IS NOT NULL`);
    await q.query(`
      CREATE TABLE deliveries (
        company_id uuid NOT NULL,
        id uuid NOT NULL,
        shipment_id uuid NOT NULL,
        invoice_id uuid NOT NULL,
        reminder_id uuid,
        channel text NOT NULL CHECK (channel IN ('email', 'post', 'manual')),
        attempt integer NOT NULL,
        recipient text,
        outcome text NOT NULL CHECK (outcome IN ('delivered', 'temporary_failure', 'permanent_failure', 'cancelled')),
        provider text,
        provider_id text,
        message_id text,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, shipment_id) REFERENCES shipments (company_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX deliveries_invoice_idx ON deliveries (company_id, invoice_id, created_at)`);
    await q.query(`CREATE INDEX deliveries_shipment_idx ON deliveries (company_id, shipment_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE deliveries, shipments, shipping_settings`);
  }
}
