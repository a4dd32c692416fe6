import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invoice events without the foreign key to invoices. Events are append-only and written only in the
 * transaction that changes their invoice, and invoices are never deleted, so the key guarded nothing; but
 * its per-row check locks the invoice row again for every event (FOR KEY SHARE: a tuple lock and a WAL
 * record each), which made up about a third of a set-based dunning run that writes an event per
 * transition (issue 7's bench: 1,000,000 events in one run over 100 companies). The same reasoning as
 * erp_pulled_invoices.
 */
export class InvoiceEventsLean1764100000100 implements MigrationInterface {
  name = 'InvoiceEventsLean1764100000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invoice_events DROP CONSTRAINT IF EXISTS invoice_events_company_id_invoice_id_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE invoice_events ADD CONSTRAINT invoice_events_company_id_invoice_id_fkey FOREIGN KEY (company_id, invoice_id) REFERENCES invoices (company_id, id)`,
    );
  }
}
