import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invoices without their own foreign key to companies. It is implied: an invoice's (company_id,
 * customer_id) references a customer of the same company, and customers reference their company, so no
 * invoice can name a company that does not exist, nor can the company be deleted while it has one. The
 * key's per-row check cost an ERP pull's insert of 100,000 invoices as many lookups and locks of the
 * company row (issue 6's bench).
 */
export class InvoicesLeanCompanyKey1764200000000 implements MigrationInterface {
  name = 'InvoicesLeanCompanyKey1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invoices DROP CONSTRAINT IF EXISTS invoices_company_id_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invoices ADD CONSTRAINT invoices_company_id_fkey FOREIGN KEY (company_id) REFERENCES companies (id)`);
  }
}
