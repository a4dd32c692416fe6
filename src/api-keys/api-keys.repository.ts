// SQL for API keys (push credentials). The lookup by hash comes before the company is known; every
// other method takes the company id.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { hashSecret, newSecret } from '../auth/secrets.js';
import type { CompanyContext } from '../auth/principal.js';
import { newUuid } from '../common/ids.js';
import { poolQuery } from '../database/pool-query.js';
import { namedQuery } from '../database/named-query.js';
import type { PageRequest } from '../common/pagination.js';

export interface ApiKeyRecord {
  companyId: string;
  id: string;
  name: string;
  keyPrefix: string;
  expiresAt: Date;
  revokedAt: Date | null;
  replacedBy: string | null;
  replacedAt: Date | null;
  createdAt: Date;
}

interface ApiKeyRow {
  company_id: string;
  id: string;
  name: string;
  key_prefix: string;
  expires_at: Date;
  revoked_at: Date | null;
  replaced_by: string | null;
  replaced_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'k.company_id, k.id, k.name, k.key_prefix, k.expires_at, k.revoked_at, k.replaced_by, k.replaced_at, k.created_at';

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    companyId: row.company_id,
    id: row.id,
    name: row.name,
    keyPrefix: row.key_prefix,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    replacedBy: row.replaced_by,
    replacedAt: row.replaced_at,
    createdAt: row.created_at,
  };
}

const BY_HASH = `SELECT ${COLUMNS}, c.name AS company_name, c.time_zone FROM api_keys k JOIN companies c ON c.id = k.company_id WHERE k.key_hash = $1`;

export interface KeyMatch {
  key: ApiKeyRecord;
  company: CompanyContext;
}

@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * The key with this secret, whatever its state (the caller tells expired from revoked), with its
   * company. On every push: a plain read straight on the pool, like the REST token lookup.
   */
  async findBySecret(secret: string): Promise<KeyMatch | undefined> {
    // Named (prepared): planned once per connection, not on every push. node-postgres takes the object.
    const statement = namedQuery('api_key_by_hash', BY_HASH);
    const rows = await poolQuery<ApiKeyRow & { company_name: string; time_zone: string }>(
      this.db,
      statement,
      [hashSecret(secret)],
    );
    const row = rows[0];
    return row && { key: toRecord(row), company: { id: row.company_id, name: row.company_name, timeZone: row.time_zone } };
  }

  async issue(companyId: string, name: string, lifetimeDays: number, manager: EntityManager = this.db.manager): Promise<{ key: ApiKeyRecord; secret: string }> {
    const secret = newSecret('key');
    const rows: ApiKeyRow[] = await manager.query(
      `INSERT INTO api_keys AS k (company_id, id, name, key_hash, key_prefix, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6))
       RETURNING ${COLUMNS}`,
      [companyId, newUuid(), name, hashSecret(secret), secret.slice(0, 8), lifetimeDays],
    );
    return { key: toRecord(rows[0]), secret };
  }

  async list(companyId: string, page: PageRequest): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    const rows: Array<ApiKeyRow & { total: string }> = await this.db.query(
      `SELECT ${COLUMNS}, count(*) OVER () AS total FROM api_keys k
        WHERE k.company_id = $1 ORDER BY k.created_at, k.id LIMIT $2 OFFSET $3`,
      [companyId, page.perPage, page.offset],
    );
    const total = rows.length > 0 ? Number(rows[0].total) : await this.count(companyId);
    return { keys: rows.map(toRecord), total };
  }

  async find(companyId: string, id: string, manager: EntityManager = this.db.manager, lock = false): Promise<ApiKeyRecord | undefined> {
    const rows: ApiKeyRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM api_keys k WHERE k.company_id = $1 AND k.id = $2${lock ? ' FOR UPDATE' : ''}`,
      [companyId, id],
    );
    return rows[0] && toRecord(rows[0]);
  }

  /** Revokes the key now; revoking a revoked key changes nothing. */
  async revoke(companyId: string, id: string): Promise<ApiKeyRecord | undefined> {
    const rows: ApiKeyRow[] = await this.db.query(
      `WITH k AS (UPDATE api_keys k SET revoked_at = coalesce(k.revoked_at, now()) WHERE k.company_id = $1 AND k.id = $2 RETURNING k.*)
       SELECT ${COLUMNS} FROM k`,
      [companyId, id],
    );
    return rows[0] && toRecord(rows[0]);
  }

  /** Marks the key as replaced by its successor; it stays valid until `validUntil` at the latest. */
  async markReplaced(key: ApiKeyRecord, successorId: string, validUntil: Date, manager: EntityManager): Promise<ApiKeyRecord> {
    const rows: ApiKeyRow[] = await manager.query(
      `WITH k AS (UPDATE api_keys k SET replaced_by = $3, replaced_at = now(), expires_at = LEAST(k.expires_at, $4)
        WHERE k.company_id = $1 AND k.id = $2 RETURNING k.*)
       SELECT ${COLUMNS} FROM k`,
      [key.companyId, key.id, successorId, validUntil],
    );
    return toRecord(rows[0]);
  }

  private async count(companyId: string): Promise<number> {
    const rows: Array<{ n: number }> = await this.db.query(`SELECT count(*)::int AS n FROM api_keys WHERE company_id = $1`, [companyId]);
    return rows[0].n;
  }
}
