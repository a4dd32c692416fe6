import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether an invoice's PDF (and its attachment) carries active content — JavaScript, /Launch actions,
 * embedded files — as found at upload. The service e-mails and prints these PDFs to debtors: the flag
 * shows which ones do more than display. Existing rows were not inspected and read as false.
 */
export class PdfActiveContent1764300000000 implements MigrationInterface {
  name = 'PdfActiveContent1764300000000';

  async up(q: QueryRunner): Promise<void> {
    // A constant default: PostgreSQL adds both columns without rewriting the table.
    await q.query(`ALTER TABLE invoices
      ADD COLUMN pdf_active_content boolean NOT NULL DEFAULT false,
      ADD COLUMN attachment_active_content boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invoices DROP COLUMN pdf_active_content, DROP COLUMN attachment_active_content`);
  }
}
