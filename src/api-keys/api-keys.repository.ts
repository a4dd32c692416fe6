// SQL for API keys (push credentials). The lookup by hash comes before the company is known; every
// other method takes the company id.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { hashSecret, newSecret } from '../auth/secrets.js';
import type { CompanyContext } from '../auth/principal.js';
import { newUuid } from '../common/ids.js';
import type { PageRequest } from '../common/pagination.js';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';

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
  /** When the key last authenticated a request (to the minute); null if never. */
  lastUsedAt: Date | null;
}

export interface KeyMatch {
  key: ApiKeyRecord;
  company: CompanyContext;
}

/** The columns of a key as an ApiKeyRecord. */
const RECORD =
  'k.company_id AS "companyId", k.id, k.name, k.key_prefix AS "keyPrefix", k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt", ' +
  'k.replaced_by AS "replacedBy", k.replaced_at AS "replacedAt", k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt"';

/**
 * The key with this secret, whatever its state, with its company. On every push: prepared (planned once
 * per connection, not on every push) and run straight on the pool, like the REST token lookup.
 */
const FIND_BY_HASH = statement<ApiKeyRecord & { companyName: string; timeZone: string }>(
  'api_keys.find_by_hash',
  `SELECT ${RECORD}, c.name AS "companyName", c.time_zone AS "timeZone" FROM api_keys k JOIN companies c ON c.id = k.company_id WHERE k.key_hash = $1`,
  { crossTenant: 'the key names its company: the lookup comes before the company is known' },
);
const ISSUE = statement<ApiKeyRecord>(
  'api_keys.issue',
  `INSERT INTO api_keys AS k (company_id, id, name, key_hash, key_prefix, expires_at)
   VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6))
   RETURNING ${RECORD}`,
);
const PAGE = statement<ApiKeyRecord & { total: string }>(
  'api_keys.page',
  `SELECT ${RECORD}, count(*) OVER () AS total FROM api_keys k
    WHERE k.company_id = $1 ORDER BY k.created_at, k.id LIMIT $2 OFFSET $3`,
);
const COUNT = statement<{ n: number }>('api_keys.count', 'SELECT count(*)::int AS n FROM api_keys WHERE company_id = $1');
const FIND = statement<ApiKeyRecord>('api_keys.find', `SELECT ${RECORD} FROM api_keys k WHERE k.company_id = $1 AND k.id = $2`);
const FIND_FOR_UPDATE = statement<ApiKeyRecord>(
  'api_keys.find_for_update',
  `SELECT ${RECORD} FROM api_keys k WHERE k.company_id = $1 AND k.id = $2 FOR UPDATE`,
);
const REVOKE = statement<ApiKeyRecord>(
  'api_keys.revoke',
  `WITH k AS (UPDATE api_keys k SET revoked_at = coalesce(k.revoked_at, now()) WHERE k.company_id = $1 AND k.id = $2 RETURNING k.*)
   SELECT ${RECORD} FROM k`,
);
const MARK_REPLACED = statement<ApiKeyRecord>(
  'api_keys.mark_replaced',
  `WITH k AS (UPDATE api_keys k SET replaced_by = $3, replaced_at = now(), expires_at = LEAST(k.expires_at, $4)
    WHERE k.company_id = $1 AND k.id = $2 RETURNING k.*)
   SELECT ${RECORD} FROM k`,
);
/** Notes a use of the key; a use noted within the last minute is enough (no write per push). */
const RECORD_USE = statement(
  'api_keys.record_use',
  `UPDATE api_keys SET last_used_at = now()
    WHERE company_id = $1 AND id = $2 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
);

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly sql: Sql) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  /** The key with this secret, whatever its state (the caller tells expired from revoked), with its company. */
  async findBySecret(secret: string): Promise<KeyMatch | undefined> {
    const row = await this.sql.first(FIND_BY_HASH, [hashSecret(secret)]);
    if (!row) return undefined;
    const { companyName, timeZone, ...key } = row;
    return { key, company: { id: key.companyId, name: companyName, timeZone } };
  }

  async issue(
    companyId: string,
    name: string,
    lifetimeDays: number,
    manager?: EntityManager,
  ): Promise<{ key: ApiKeyRecord; secret: string }> {
    const secret = newSecret('key');
    const key = await this.sql.one(ISSUE, [companyId, newUuid(), name, hashSecret(secret), secret.slice(0, 8), lifetimeDays], manager);
    return { key, secret };
  }

  async list(companyId: string, page: PageRequest): Promise<{ keys: ApiKeyRecord[]; total: number }> {
    const rows = await this.sql.rows(PAGE, [companyId, page.perPage, page.offset]);
    const total = rows.length > 0 ? Number(rows[0].total) : (await this.sql.one(COUNT, [companyId])).n;
    return { keys: rows.map(({ total: _, ...key }) => key), total };
  }

  find(companyId: string, id: string, manager?: EntityManager, lock = false): Promise<ApiKeyRecord | undefined> {
    return this.sql.first(lock ? FIND_FOR_UPDATE : FIND, [companyId, id], manager);
  }

  /** Revokes the key now; revoking a revoked key changes nothing. */
  revoke(companyId: string, id: string): Promise<ApiKeyRecord | undefined> {
    return this.sql.first(REVOKE, [companyId, id]);
  }

  async recordUse(companyId: string, id: string): Promise<void> {
    await this.sql.run(RECORD_USE, [companyId, id]);
  }

  /** Marks the key as replaced by its successor; it stays valid until `validUntil` at the latest. */
  markReplaced(key: ApiKeyRecord, successorId: string, validUntil: Date, manager: EntityManager): Promise<ApiKeyRecord> {
    return this.sql.one(MARK_REPLACED, [key.companyId, key.id, successorId, validUntil], manager);
  }
}
