import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The web app's server-side sessions (src/web/session-store.ts), each user's language, and the indexes
 * of the dashboard's figures by date. A session row
 * holds what express-session keeps (who signed in, nothing secret) until it expires; the cookie carries
 * only its id.
 */
export class WebSessions1764600000000 implements MigrationInterface {
  name = 'WebSessions1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE web_sessions (
      sid text PRIMARY KEY,
      sess jsonb NOT NULL,
      expires_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX web_sessions_expires_at ON web_sessions (expires_at)`);
    await q.query(`ALTER TABLE users ADD COLUMN locale text NOT NULL DEFAULT 'de' CHECK (locale IN ('de', 'en'))`);
    // The dashboard's sales of the last 90 days (DSO) and money collected per month read by date.
    await q.query(`CREATE INDEX invoices_invoice_date_idx ON invoices (company_id, invoice_date)`);
    await q.query(`CREATE INDEX payments_payment_date_idx ON payments (company_id, payment_date)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX payments_payment_date_idx`);
    await q.query(`DROP INDEX invoices_invoice_date_idx`);
    await q.query(`ALTER TABLE users DROP COLUMN locale`);
    await q.query(`DROP TABLE web_sessions`);
  }
}
