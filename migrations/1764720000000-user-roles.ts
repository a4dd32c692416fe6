import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user's role in their company (issue 20): an owner manages users, API keys, OAuth applications, ERP
 * connections and settings; a member works with invoices, customers, dunning and the exception pages.
 * The user who registered a company is its owner: the earliest user of each existing company becomes one.
 */
export class UserRoles1764720000000 implements MigrationInterface {
  name = 'UserRoles1764720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'member'))`);
    await q.query(`UPDATE users u SET role = 'owner'
                    WHERE u.id = (SELECT f.id FROM users f WHERE f.company_id = u.company_id ORDER BY f.created_at, f.id LIMIT 1)`);
    await q.query(`ALTER TABLE invitations ADD COLUMN role text NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'member'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invitations DROP COLUMN role`);
    await q.query(`ALTER TABLE users DROP COLUMN role`);
  }
}
