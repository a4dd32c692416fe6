import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Company settings (issue 20): a contact e-mail address of the company, and the logo its letters show
 * in the letterhead (PNG or JPEG, one per company, checked and size-limited on upload).
 */
export class CompanySettings1764720000300 implements MigrationInterface {
  name = 'CompanySettings1764720000300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE companies ADD COLUMN contact_email text`);
    await q.query(`
      CREATE TABLE letter_logos (
        company_id uuid PRIMARY KEY REFERENCES companies(id),
        content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
        image bytea NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE letter_logos`);
    await q.query(`ALTER TABLE companies DROP COLUMN contact_email`);
  }
}
