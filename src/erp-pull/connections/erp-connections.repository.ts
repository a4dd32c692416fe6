// SQL for ERP connections. Every method takes the company id, except the scheduler's look for due
// connections, which is across companies by nature.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PageRequest } from '../../common/pagination.js';
import { entityColumns } from '../../database/sql/entity-columns.js';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import { ErpConnection, type Watermarks } from './erp-connection.entity.js';

/** A company's connections, oldest first. */
const PAGE = statement<ErpConnection>(
  'erp_pull.connections_page',
  () => `SELECT ${entityColumns(ErpConnection)} FROM erp_connections WHERE company_id = $1 ORDER BY created_at ASC, id ASC LIMIT $2 OFFSET $3`,
);
const COUNT = statement<{ count: string }>('erp_pull.connections_count', 'SELECT count(*) AS count FROM erp_connections WHERE company_id = $1');
const DELETE_PULLED_INVOICES = statement('erp_pull.forget_pulled_invoices', 'DELETE FROM erp_pulled_invoices WHERE company_id = $1 AND connection_id = $2');
/** Merges the given streams' watermarks, unless they were reset since (another generation). */
const SAVE_WATERMARKS = statement<{ id: string }>(
  'erp_pull.save_watermarks',
  'UPDATE erp_connections SET watermarks = watermarks || $4::jsonb WHERE company_id = $1 AND id = $2 AND watermark_generation = $3 RETURNING id',
);
const DUE = statement<{ company_id: string; id: string }>(
  'erp_pull.due_connections',
  `SELECT company_id, id FROM erp_connections
    WHERE enabled AND schedule IS NOT NULL AND next_pull_at <= now()
    ORDER BY next_pull_at LIMIT $1`,
  { crossTenant: "the scheduler's minute tick looks for the due connections of every company" },
);
const LOCK_IF_DUE = statement<{ id: string; time_zone: string }>(
  'erp_pull.lock_due_connection',
  `SELECT c.id, co.time_zone FROM erp_connections c JOIN companies co ON co.id = c.company_id
    WHERE c.company_id = $1 AND c.id = $2 AND c.enabled AND c.schedule IS NOT NULL AND c.next_pull_at <= now()
      FOR UPDATE OF c SKIP LOCKED`,
);
const SET_NEXT_PULL_AT = statement('erp_pull.set_next_pull_at', 'UPDATE erp_connections SET next_pull_at = $3 WHERE company_id = $1 AND id = $2');

export type ConnectionValues = Omit<ErpConnection, 'companyId' | 'id' | 'createdAt' | 'updatedAt'>;

@Injectable()
export class ErpConnectionsRepository {
  constructor(private readonly sql: Sql) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  async insert(companyId: string, id: string, values: ConnectionValues): Promise<ErpConnection> {
    const now = new Date();
    const connection = this.sql.manager.create(ErpConnection, { ...values, companyId, id, createdAt: now, updatedAt: now });
    await this.sql.manager.insert(ErpConnection, connection);
    return connection;
  }

  /** `resetWatermarks`: the next pull reads everything, and a run under way can no longer store its watermarks. */
  async update(connection: ErpConnection, changes: Partial<ConnectionValues>, resetWatermarks = false): Promise<ErpConnection> {
    const key = { companyId: connection.companyId, id: connection.id };
    const reset = resetWatermarks ? { watermarks: {}, watermarkGeneration: () => 'watermark_generation + 1' } : {};
    await this.sql.manager.update(ErpConnection, key, { ...changes, ...reset, updatedAt: new Date() });
    return this.sql.manager.findOneByOrFail(ErpConnection, key);
  }

  findById(companyId: string, id: string, manager: EntityManager = this.sql.manager): Promise<ErpConnection | null> {
    return manager.findOneBy(ErpConnection, { companyId, id });
  }

  async list(companyId: string, page: PageRequest): Promise<{ connections: ErpConnection[]; total: number }> {
    const connections = await this.sql.rows(PAGE, [companyId, page.perPage, page.offset]);
    const { count } = await this.sql.one(COUNT, [companyId]);
    return { connections, total: Number(count) };
  }

  /** Deletes the connection, its pull runs and which invoices it pulled (the customers and invoices stay). */
  async delete(companyId: string, id: string): Promise<boolean> {
    return this.sql.transaction(async (manager) => {
      await this.sql.run(DELETE_PULLED_INVOICES, [companyId, id], manager);
      const result = await manager.delete(ErpConnection, { companyId, id });
      return (result.affected ?? 0) > 0;
    });
  }

  /**
   * Merges the given streams' watermarks into the stored ones, unless they were reset since the run read
   * them (another generation): false then, and nothing is stored.
   */
  async saveWatermarks(manager: EntityManager, companyId: string, id: string, generation: number, watermarks: Watermarks): Promise<boolean> {
    return (await this.sql.affected(SAVE_WATERMARKS, [companyId, id, generation, JSON.stringify(watermarks)], manager)) > 0;
  }

  /** Connections whose scheduled pull is due (any company). */
  async due(limit = 100): Promise<Array<{ companyId: string; id: string }>> {
    const rows = await this.sql.rows(DUE, [limit]);
    return rows.map((r) => ({ companyId: r.company_id, id: r.id }));
  }

  /** The connection, locked, if its pull is still due: a second scheduler on another replica skips it. */
  async lockIfDue(manager: EntityManager, companyId: string, id: string): Promise<{ connection: ErpConnection; timeZone: string } | null> {
    const locked = await this.sql.first(LOCK_IF_DUE, [companyId, id], manager);
    if (!locked) return null;
    const connection = await manager.findOneByOrFail(ErpConnection, { companyId, id });
    return { connection, timeZone: locked.time_zone };
  }

  async setNextPullAt(manager: EntityManager, companyId: string, id: string, at: Date | null): Promise<void> {
    await this.sql.run(SET_NEXT_PULL_AT, [companyId, id, at], manager);
  }
}
