// SQL for remembered POST answers. A key is claimed before the work runs, so two concurrent retries
// cannot both do it; answers are kept for 24 hours.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

export interface RememberedRequest {
  requestHash: Buffer;
  statusCode: number | null;
  responseBody: unknown;
  createdAt: Date;
}

export const RETENTION_HOURS = 24;

@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Claims the key for this request; returns the earlier record when the key is taken. */
  async claim(companyId: string, key: string, requestHash: Buffer): Promise<RememberedRequest | undefined> {
    const inserted = await this.db.query(
      `INSERT INTO idempotency_keys (company_id, key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT (company_id, key) DO NOTHING RETURNING key`,
      [companyId, key, requestHash],
    );
    if (inserted.length > 0) return undefined;
    const rows: Array<{ request_hash: Buffer; status_code: number | null; response_body: unknown; created_at: Date }> =
      await this.db.query(
        `SELECT request_hash, status_code, response_body, created_at FROM idempotency_keys WHERE company_id = $1 AND key = $2`,
        [companyId, key],
      );
    const row = rows[0];
    if (!row) return this.claim(companyId, key, requestHash); // expired and swept in between
    return { requestHash: row.request_hash, statusCode: row.status_code, responseBody: row.response_body, createdAt: row.created_at };
  }

  async complete(companyId: string, key: string, statusCode: number, body: unknown): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET status_code = $3, response_body = $4, completed_at = now() WHERE company_id = $1 AND key = $2`,
      [companyId, key, statusCode, JSON.stringify(body)],
    );
  }

  /** The work failed and changed nothing: the key is free for the next try. */
  async release(companyId: string, key: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE company_id = $1 AND key = $2 AND status_code IS NULL`, [
      companyId,
      key,
    ]);
  }

  async sweepExpired(): Promise<number> {
    const result = await this.db.query(
      `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`,
      [RETENTION_HOURS],
    );
    return Array.isArray(result) ? (result[1] ?? 0) : 0;
  }
}
