import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Whether a connection fetches its pulled invoices' PDFs from the ERP (off for every existing one). */
export class ErpFetchInvoicePdfs1764540000100 implements MigrationInterface {
  name = 'ErpFetchInvoicePdfs1764540000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE erp_connections ADD COLUMN fetch_invoice_pdfs boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE erp_connections DROP COLUMN fetch_invoice_pdfs`);
  }
}
