// Reads on the hottest routes go straight to the pg pool under TypeORM's DataSource: one pool, the
// same connections, but none of the QueryRunner set-up, event broadcasting and logging hooks that
// DataSource.query adds to every statement. Only for plain reads outside a transaction.
import type pg from 'pg';
import type { DataSource } from 'typeorm';

const pools = new WeakMap<DataSource, pg.Pool>();

function poolOf(db: DataSource): pg.Pool {
  let pool = pools.get(db);
  if (!pool) {
    pool = (db.driver as unknown as { master: pg.Pool }).master;
    if (!pool || typeof pool.query !== 'function') throw new Error('The DataSource has no pg pool (not initialized, or not PostgreSQL)');
    pools.set(db, pool);
  }
  return pool;
}

export async function poolQuery<T>(db: DataSource, sql: string, params: unknown[]): Promise<T[]> {
  return (await poolOf(db).query(sql, params)).rows as T[];
}
