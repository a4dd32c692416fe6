// SQL for files announced before they are stored (pending_documents): a write that stores files
// announces their keys first (committed on its own), and removes the announcement in the transaction
// that references the files. What is still announced after the grace period belongs to a write that
// never committed. Every method takes the company id, except the sweep's, which spans companies.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

export interface PendingFiles {
  companyId: string;
  id: string;
  keys: string[];
}

@Injectable()
export class PendingDocumentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Committed before the first byte is stored. (The invoice create folds it into its first statement.) */
  async announce(companyId: string, id: string, keys: string[]): Promise<void> {
    await this.db.query(`INSERT INTO pending_documents (company_id, id, keys) VALUES ($1, $2, $3)`, [companyId, id, keys]);
  }

  /** In the transaction that references the files. */
  async settle(companyId: string, id: string, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.query(PendingDocumentsRepository.settleSql('$1', '$2'), [companyId, id]);
  }

  async forget(pending: Pick<PendingFiles, 'companyId' | 'id'>): Promise<void> {
    await this.settle(pending.companyId, pending.id);
  }

  /** settle() as SQL, for a write that folds it into a statement of its own (the placeholders are the caller's). */
  static settleSql(companyParam: string, idParam: string): string {
    return `DELETE FROM pending_documents WHERE company_id = ${companyParam} AND id = ${idParam}`;
  }

  /** Announcements older than the grace period, oldest first. */
  async abandoned(graceHours: number, limit: number): Promise<PendingFiles[]> {
    const rows: Array<{ company_id: string; id: string; keys: string[] }> = await this.db.query(
      `SELECT company_id, id, keys FROM pending_documents WHERE created_at < now() - make_interval(hours => $1) ORDER BY created_at LIMIT $2`,
      [graceHours, limit],
    );
    return rows.map((row) => ({ companyId: row.company_id, id: row.id, keys: row.keys }));
  }
}
