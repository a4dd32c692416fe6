// SQL for credentials. Lookups by hash come before the company is known; everything else takes the company id.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newUuid } from '../common/ids.js';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';
import type { CompanyContext } from './principal.js';
import { hashSecret, newSecret } from './secrets.js';

// Prepared: every REST request runs it, so it is planned once per connection.
const FIND_ACTIVE_TOKEN = statement<{ id: string; company_id: string; name: string; time_zone: string }>(
  'auth.find_active_token',
  `SELECT t.id, c.id AS company_id, c.name, c.time_zone
     FROM api_tokens t JOIN companies c ON c.id = t.company_id
    WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
  { crossTenant: 'the token names its company: the lookup comes before the company is known' },
);
const INSERT_TOKEN = statement('auth.insert_token', 'INSERT INTO api_tokens (company_id, id, name, token_hash) VALUES ($1, $2, $3, $4)');
const INSERT_API_KEY = statement(
  'auth.insert_api_key',
  'INSERT INTO api_keys (company_id, id, name, key_hash, key_prefix, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
);

export interface CredentialMatch {
  credentialId: string;
  company: CompanyContext;
}

export interface IssuedSecret {
  id: string;
  secret: string;
}

export interface IssuedKey extends IssuedSecret {
  expiresAt: Date;
}

export const API_KEY_LIFETIME_DAYS = 90;

@Injectable()
export class CredentialsRepository {
  constructor(private readonly sql: Sql) {}

  async findActiveToken(token: string): Promise<CredentialMatch | undefined> {
    const row = await this.sql.first(FIND_ACTIVE_TOKEN, [hashSecret(token)]);
    return row && { credentialId: row.id, company: { id: row.company_id, name: row.name, timeZone: row.time_zone } };
  }

  async issueToken(companyId: string, name = 'default', manager?: EntityManager): Promise<IssuedSecret> {
    const id = newUuid();
    const secret = newSecret('token');
    await this.sql.run(INSERT_TOKEN, [companyId, id, name, hashSecret(secret)], manager);
    return { id, secret };
  }

  async issueApiKey(companyId: string, name = 'default', manager?: EntityManager): Promise<IssuedKey> {
    const id = newUuid();
    const secret = newSecret('key');
    const expiresAt = new Date(Date.now() + API_KEY_LIFETIME_DAYS * 86_400_000);
    await this.sql.run(INSERT_API_KEY, [companyId, id, name, hashSecret(secret), secret.slice(0, 8), expiresAt], manager);
    return { id, secret, expiresAt };
  }
}
