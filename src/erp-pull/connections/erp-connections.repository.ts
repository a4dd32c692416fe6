// SQL for ERP connections. Every method takes the company id, except the scheduler's look for due
// connections, which is across companies by nature.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PageRequest } from '../../common/pagination.js';
import { ErpConnection, type Watermarks } from './erp-connection.entity.js';
import { returnedRows } from '../run/returned-rows.js';

export type ConnectionValues = Omit<ErpConnection, 'companyId' | 'id' | 'createdAt' | 'updatedAt'>;

@Injectable()
export class ErpConnectionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(companyId: string, id: string, values: ConnectionValues): Promise<ErpConnection> {
    const now = new Date();
    const connection = this.db.manager.create(ErpConnection, { ...values, companyId, id, createdAt: now, updatedAt: now });
    await this.db.manager.insert(ErpConnection, connection);
    return connection;
  }

  /** `resetWatermarks`: the next pull reads everything, and a run under way can no longer store its watermarks. */
  async update(connection: ErpConnection, changes: Partial<ConnectionValues>, resetWatermarks = false): Promise<ErpConnection> {
    const key = { companyId: connection.companyId, id: connection.id };
    const reset = resetWatermarks ? { watermarks: {}, watermarkGeneration: () => 'watermark_generation + 1' } : {};
    await this.db.manager.update(ErpConnection, key, { ...changes, ...reset, updatedAt: new Date() });
    return this.db.manager.findOneByOrFail(ErpConnection, key);
  }

  findById(companyId: string, id: string, manager: EntityManager = this.db.manager): Promise<ErpConnection | null> {
    return manager.findOneBy(ErpConnection, { companyId, id });
  }

  async list(companyId: string, page: PageRequest): Promise<{ connections: ErpConnection[]; total: number }> {
    const [connections, total] = await this.db.manager.findAndCount(ErpConnection, {
      where: { companyId },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.perPage,
    });
    return { connections, total };
  }

  /** Deletes the connection, its pull runs and which invoices it pulled (the customers and invoices stay). */
  async delete(companyId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (manager) => {
      await manager.query(`DELETE FROM erp_pulled_invoices WHERE company_id = $1 AND connection_id = $2`, [companyId, id]);
      const result = await manager.delete(ErpConnection, { companyId, id });
      return (result.affected ?? 0) > 0;
    });
  }

  /**
   * Merges the given streams' watermarks into the stored ones, unless they were reset since the run read
   * them (another generation): false then, and nothing is stored.
   */
  async saveWatermarks(manager: EntityManager, companyId: string, id: string, generation: number, watermarks: Watermarks): Promise<boolean> {
    const result: unknown = await manager.query(
      `UPDATE erp_connections SET watermarks = watermarks || $4::jsonb WHERE company_id = $1 AND id = $2 AND watermark_generation = $3 RETURNING id`,
      [companyId, id, generation, JSON.stringify(watermarks)],
    );
    return returnedRows(result).length > 0;
  }

  /** Connections whose scheduled pull is due (any company). */
  async due(limit = 100): Promise<Array<{ companyId: string; id: string }>> {
    const rows: Array<{ company_id: string; id: string }> = await this.db.query(
      `SELECT company_id, id FROM erp_connections
        WHERE enabled AND schedule IS NOT NULL AND next_pull_at <= now()
        ORDER BY next_pull_at LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ companyId: r.company_id, id: r.id }));
  }

  /** The connection, locked, if its pull is still due: a second scheduler on another replica skips it. */
  async lockIfDue(manager: EntityManager, companyId: string, id: string): Promise<{ connection: ErpConnection; timeZone: string } | null> {
    const rows: Array<{ id: string; time_zone: string }> = await manager.query(
      `SELECT c.id, co.time_zone FROM erp_connections c JOIN companies co ON co.id = c.company_id
        WHERE c.company_id = $1 AND c.id = $2 AND c.enabled AND c.schedule IS NOT NULL AND c.next_pull_at <= now()
        FOR UPDATE OF c SKIP LOCKED`,
      [companyId, id],
    );
    if (rows.length === 0) return null;
    const connection = await manager.findOneByOrFail(ErpConnection, { companyId, id });
    return { connection, timeZone: rows[0].time_zone };
  }

  async setNextPullAt(manager: EntityManager, companyId: string, id: string, at: Date | null): Promise<void> {
    await manager.query(`UPDATE erp_connections SET next_pull_at = $3 WHERE company_id = $1 AND id = $2`, [companyId, id, at]);
  }
}
