import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an API key last authenticated a request (issue 20: the key list shows it). Written at most once
 * a minute per key (ApiKeysService), so a busy push client costs no write per request.
 */
export class ApiKeyLastUse1764720000100 implements MigrationInterface {
  name = 'ApiKeyLastUse1764720000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN last_used_at`);
  }
}
