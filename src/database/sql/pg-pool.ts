// Private to the SQL door. Statements outside a transaction go straight to the pg pool under TypeORM's
// DataSource: one pool, the same connections, but none of the QueryRunner set-up, event broadcasting and
// logging hooks that DataSource.query adds to every statement (measured on the customers GET: those hooks
// cost more CPU than the rest of the request's database work).
import type pg from 'pg';
import type { DataSource } from 'typeorm';

const pools = new WeakMap<DataSource, pg.Pool>();

export function poolOf(db: DataSource): pg.Pool {
  let pool = pools.get(db);
  if (!pool) {
    pool = (db.driver as unknown as { master: pg.Pool }).master;
    if (!pool || typeof pool.query !== 'function') throw new Error('The DataSource has no pg pool (not initialized, or not PostgreSQL)');
    pools.set(db, pool);
  }
  return pool;
}
