import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a pushed invoice says was supplied: line items and the delivery date or period (§ 14 (4) Nr. 5
 * and 6 UStG), so that the service can render a complete invoice for one pushed without a PDF.
 */
export class InvoiceSupply1764540000000 implements MigrationInterface {
  name = 'InvoiceSupply1764540000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invoices ADD COLUMN supply jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invoices DROP COLUMN supply`);
  }
}
