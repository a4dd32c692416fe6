// The service's one door to PostgreSQL for declared statements (statement.ts). It decides how a
// statement travels: on the transaction's connection when a manager of a running transaction is given,
// else straight on the pool; prepared under its name, or unnamed for a custom plan. Repositories reach
// the database through this door or through TypeORM's single-row repository calls, nothing else.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, QueryResult } from 'typeorm';
import { installFastTimestamps } from './fast-timestamps.js';
import { poolOf } from './pg-pool.js';
import { replicaPool } from './read-replica.js';
import type { Statement } from './statement.js';

export interface Outcome<Row> {
  rows: Row[];
  /** Rows inserted, updated or deleted (or returned, for a SELECT). */
  affected: number;
}

interface PgQuery {
  name?: string;
  text: string;
}

@Injectable()
export class Sql {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    installFastTimestamps();
  }

  /** The rows of the statement. */
  async rows<Row>(statement: Statement<Row>, params: readonly unknown[] = [], manager?: EntityManager): Promise<Row[]> {
    return (await this.run(statement, params, manager)).rows;
  }

  /** Its first row, if any. */
  async first<Row>(statement: Statement<Row>, params: readonly unknown[] = [], manager?: EntityManager): Promise<Row | undefined> {
    return (await this.run(statement, params, manager)).rows[0];
  }

  /** Its first row, which the statement always returns (an aggregate, an INSERT … RETURNING). */
  async one<Row>(statement: Statement<Row>, params: readonly unknown[] = [], manager?: EntityManager): Promise<Row> {
    const [row] = (await this.run(statement, params, manager)).rows;
    if (row === undefined) throw new Error(`The statement ${statement.name} returned no row`);
    return row;
  }

  /** How many rows it inserted, updated or deleted. */
  async affected(statement: Statement, params: readonly unknown[] = [], manager?: EntityManager): Promise<number> {
    return (await this.run(statement, params, manager)).affected;
  }

  /**
   * Runs `work` in one transaction. With `customPlans`, PostgreSQL plans every statement of it (prepared
   * ones included) with its actual parameters and the tables' current size: see PlanMode 'custom'.
   */
  async transaction<T>(work: (manager: EntityManager) => Promise<T>, options: { customPlans?: boolean } = {}): Promise<T> {
    return this.db.transaction(async (manager) => {
      if (options.customPlans) await this.customPlans(manager);
      return work(manager);
    });
  }

  /** For the rest of the caller's transaction, custom plans for every statement (see transaction()). */
  async customPlans(manager: EntityManager): Promise<void> {
    await this.run(CUSTOM_PLANS, [], manager);
  }

  /**
   * SQL that a library writes (pg-boss's job statements), run on the caller's transaction: it cannot be
   * declared here, and it touches only the library's own schema, never a tenant table.
   */
  async foreign<Row>(text: string, values: readonly unknown[], manager: EntityManager): Promise<Row[]> {
    return this.run<Row>({ name: 'foreign', text, plan: 'custom', crossTenant: 'a library\'s own tables' }, values, manager).then((r) => r.rows);
  }

  /** The manager of work outside a transaction (TypeORM's single-row repository calls). */
  get manager(): EntityManager {
    return this.db.manager;
  }

  async run<Row>(statement: Statement<Row>, params: readonly unknown[], manager?: EntityManager): Promise<Outcome<Row>> {
    const query: PgQuery = statement.plan === 'prepared' ? { name: statement.name, text: statement.text } : { text: statement.text };
    // A transaction's manager has its own query runner (the plain manager has none). TypeORM passes the
    // query object through to pg as it is; its wrapper error (QueryFailedError) keeps the driver's error,
    // which src/database/pg-errors.ts looks into, and a released runner says so (a broken connection).
    const runner = manager?.queryRunner;
    if (runner) {
      const result = (await runner.query(query as unknown as string, params as unknown[], true)) as QueryResult<Row>;
      return { rows: result.records ?? [], affected: result.affected ?? 0 };
    }
    // Read-only work that ReadReplica routed to the standby runs there (read-replica.ts).
    const result = await (replicaPool() ?? poolOf(this.db)).query({ ...query, values: params as unknown[] });
    return { rows: result.rows as Row[], affected: result.rowCount ?? 0 };
  }
}

const CUSTOM_PLANS: Statement = { name: 'database.custom_plans', text: 'SET LOCAL plan_cache_mode = force_custom_plan', plan: 'custom', crossTenant: 'a session setting' };
