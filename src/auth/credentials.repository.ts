// SQL for credentials. Lookups by hash come before the company is known; everything else takes the company id.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { newUuid } from '../common/ids.js';
import { poolQuery } from '../database/pool-query.js';
import { namedQuery } from '../database/named-query.js';
import type { CompanyContext } from './principal.js';
import { hashSecret, newSecret } from './secrets.js';

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
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async findActiveToken(token: string): Promise<CredentialMatch | undefined> {
    const rows = await poolQuery<{ id: string; company_id: string; name: string; time_zone: string }>(
      this.db,
      // Named: every REST request runs it, so it is planned once per connection.
      namedQuery(
        'api_token_lookup',
        `SELECT t.id, c.id AS company_id, c.name, c.time_zone
           FROM api_tokens t JOIN companies c ON c.id = t.company_id
          WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
      ),
      [hashSecret(token)],
    );
    const row = rows[0];
    return row && { credentialId: row.id, company: { id: row.company_id, name: row.name, timeZone: row.time_zone } };
  }

  async issueToken(companyId: string, name = 'default', manager: EntityManager = this.db.manager): Promise<IssuedSecret> {
    const id = newUuid();
    const secret = newSecret('token');
    await manager.query(`INSERT INTO api_tokens (company_id, id, name, token_hash) VALUES ($1, $2, $3, $4)`, [
      companyId,
      id,
      name,
      hashSecret(secret),
    ]);
    return { id, secret };
  }

  async issueApiKey(companyId: string, name = 'default', manager: EntityManager = this.db.manager): Promise<IssuedKey> {
    const id = newUuid();
    const secret = newSecret('key');
    const expiresAt = new Date(Date.now() + API_KEY_LIFETIME_DAYS * 86_400_000);
    await manager.query(
      `INSERT INTO api_keys (company_id, id, name, key_hash, key_prefix, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [companyId, id, name, hashSecret(secret), secret.slice(0, 8), expiresAt],
    );
    return { id, secret, expiresAt };
  }
}
