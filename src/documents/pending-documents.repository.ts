// SQL for files announced before they are stored (pending_documents): a write that stores files
// announces their keys first (committed on its own), and removes the announcement in the transaction
// that references the files. What is still announced after the grace period belongs to a write that
// never committed. Every method takes the company id, except the sweep's, which spans companies.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';

export interface PendingFiles {
  companyId: string;
  id: string;
  keys: string[];
}

/** settle() as SQL, with the caller's placeholders. */
const settleSql = (companyParam: string, idParam: string) => `DELETE FROM pending_documents WHERE company_id = ${companyParam} AND id = ${idParam}`;

const ANNOUNCE = statement('documents.announce_pending', 'INSERT INTO pending_documents (company_id, id, keys) VALUES ($1, $2, $3)');
const SETTLE = statement('documents.settle_pending', settleSql('$1', '$2'));
const ABANDONED = statement<PendingFiles>(
  'documents.abandoned_pending',
  `SELECT company_id AS "companyId", id, keys FROM pending_documents WHERE created_at < now() - make_interval(hours => $1) ORDER BY created_at LIMIT $2`,
  { crossTenant: 'the sweeper removes the abandoned files of every company' },
);

@Injectable()
export class PendingDocumentsRepository {
  constructor(private readonly sql: Sql) {}

  /** Committed before the first byte is stored. (The invoice create folds it into its first statement.) */
  async announce(companyId: string, id: string, keys: string[]): Promise<void> {
    await this.sql.run(ANNOUNCE, [companyId, id, keys]);
  }

  /** In the transaction that references the files. */
  async settle(companyId: string, id: string, manager?: EntityManager): Promise<void> {
    await this.sql.run(SETTLE, [companyId, id], manager);
  }

  async forget(pending: Pick<PendingFiles, 'companyId' | 'id'>): Promise<void> {
    await this.settle(pending.companyId, pending.id);
  }

  /** settle() as SQL, for a write that folds it into a statement of its own (the placeholders are the caller's). */
  static settleSql(companyParam: string, idParam: string): string {
    return settleSql(companyParam, idParam);
  }

  /** Announcements older than the grace period, oldest first. */
  abandoned(graceHours: number, limit: number): Promise<PendingFiles[]> {
    return this.sql.rows(ABANDONED, [graceHours, limit]);
  }
}
