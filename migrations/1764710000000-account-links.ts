import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The single-use links of the web app's account pages (src/web/account): password resets (1 hour) and
 * invitations into a company (7 days). Only the SHA-256 of a link's token is stored, like API tokens: a
 * copy of the database opens no account. A link is spent by setting used_at (or revoked_at).
 */
export class AccountLinks1764710000000 implements MigrationInterface {
  name = 'AccountLinks1764710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE password_resets (
      company_id uuid NOT NULL,
      id uuid NOT NULL,
      user_id uuid NOT NULL,
      token_hash bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      PRIMARY KEY (company_id, id),
      FOREIGN KEY (company_id, user_id) REFERENCES users (company_id, id) ON DELETE CASCADE
    )`);
    // A link is looked up by its hash before the company is known.
    await q.query(`CREATE UNIQUE INDEX password_resets_token_hash_key ON password_resets (token_hash)`);
    await q.query(`CREATE INDEX password_resets_user_idx ON password_resets (company_id, user_id)`);
    await q.query(`CREATE INDEX password_resets_expires_at_idx ON password_resets (expires_at)`);
    await q.query(`CREATE TABLE invitations (
      company_id uuid NOT NULL REFERENCES companies(id),
      id uuid NOT NULL,
      email text NOT NULL,
      locale text NOT NULL DEFAULT 'de' CHECK (locale IN ('de', 'en')),
      -- The user who invited; NULL for an operator's invitation (the CLI).
      invited_by uuid,
      token_hash bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz,
      -- The user the invitation created.
      user_id uuid,
      PRIMARY KEY (company_id, id)
    )`);
    await q.query(`CREATE UNIQUE INDEX invitations_token_hash_key ON invitations (token_hash)`);
    // At most one open invitation per address and company: a new one replaces (revokes) the old.
    await q.query(
      `CREATE UNIQUE INDEX invitations_open_email_key ON invitations (company_id, lower(email)) WHERE used_at IS NULL AND revoked_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE invitations`);
    await q.query(`DROP TABLE password_resets`);
  }
}
