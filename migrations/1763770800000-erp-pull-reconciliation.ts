import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * ERP pull: which connection an invoice was pulled by and under which ERP key (so a reconciliation can
 * ask the ERP for items that left its open list), the client authentication method at the OAuth token
 * endpoint, and a generation of the watermarks (a run started before they were reset keeps its own).
 */
export class ErpPullReconciliation1763770800000 implements MigrationInterface {
  name = 'ErpPullReconciliation1763770800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE erp_connections
        ADD COLUMN token_endpoint_auth_method text NOT NULL DEFAULT 'client_secret_post'
          CHECK (token_endpoint_auth_method IN ('client_secret_post', 'client_secret_basic')),
        ADD COLUMN watermark_generation integer NOT NULL DEFAULT 0`);
    // Written for every pulled invoice in the pull's own upsert statement, so it is kept lean: no foreign
    // keys (their per-row checks cost more than the row itself; invoices are never deleted, and a
    // connection's rows go with it in ErpConnectionsRepository.delete) and no index besides the key
    // (a reconciliation walks the company's rows in invoice id order, once a week).
    await q.query(`
      CREATE TABLE erp_pulled_invoices (
        company_id uuid NOT NULL,
        invoice_id uuid NOT NULL,
        connection_id uuid NOT NULL,
        -- the values of the item's key properties (mapping receivables.fields.external_id), as the ERP sent them
        erp_key jsonb NOT NULL,
        -- the last reconciling run that found the item in the ERP's open list
        seen_run uuid,
        PRIMARY KEY (company_id, invoice_id)
      )`);
    // Invoices pulled before: attributed where the company has exactly one connection, their key read back
    // from the external_id (the SAP key parts hold no "-").
    await q.query(`
      INSERT INTO erp_pulled_invoices (company_id, invoice_id, connection_id, erp_key)
      SELECT i.company_id, i.id, c.id, to_jsonb(string_to_array(i.external_id, '-'))
        FROM invoices i
        JOIN (SELECT company_id, min(id::text)::uuid AS id FROM erp_connections GROUP BY company_id HAVING count(*) = 1) c ON c.company_id = i.company_id
       WHERE i.source = 'ERP' AND i.external_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE erp_pulled_invoices`);
    await q.query(`ALTER TABLE erp_connections DROP COLUMN token_endpoint_auth_method, DROP COLUMN watermark_generation`);
  }
}
