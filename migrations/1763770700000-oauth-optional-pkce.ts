import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * PKCE becomes optional for the (always confidential) OAuth clients: an authorization code may be
 * issued without a code challenge; when it has one, it has its method (S256) too.
 */
export class OAuthOptionalPkce1763770700000 implements MigrationInterface {
  name = 'OAuthOptionalPkce1763770700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE oauth_authorization_codes ALTER COLUMN code_challenge DROP NOT NULL, ALTER COLUMN code_challenge_method DROP NOT NULL`,
    );
    await q.query(`
      ALTER TABLE oauth_authorization_codes ADD CONSTRAINT oauth_authorization_codes_pkce_check
        CHECK ((code_challenge IS NULL) = (code_challenge_method IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM oauth_authorization_codes WHERE code_challenge IS NULL`);
    await q.query(`ALTER TABLE oauth_authorization_codes DROP CONSTRAINT oauth_authorization_codes_pkce_check`);
    await q.query(
      `ALTER TABLE oauth_authorization_codes ALTER COLUMN code_challenge SET NOT NULL, ALTER COLUMN code_challenge_method SET NOT NULL`,
    );
  }
}
