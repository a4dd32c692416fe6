// TypeORM options shared by the app, the migration script and the TypeORM CLI. Schema comes only from migrations.
import { DataSource, type DataSourceOptions } from 'typeorm';
import { migrations } from '../../migrations/index.js';
import { entities } from './entities.js';
import { loadConfig } from '../config/app.config.js';
import { type DatabaseConfig, loadDatabaseConfig } from '../config/database.config.js';

/**
 * The pool of the application role. The bounds are session settings sent when a connection opens
 * (no statement per request): waiting for a pool slot, for a lock and for one statement all end, so
 * no request waits forever. Migrations pass 'unbounded' (one connection, no time limits): building
 * an index over a large table must not be cut off.
 */
export function dataSourceOptions(url: string, pool: DatabaseConfig | 'unbounded' = loadDatabaseConfig({})): DataSourceOptions {
  const extra =
    pool === 'unbounded'
      ? { max: 1 }
      : {
          max: pool.poolMax,
          connectionTimeoutMillis: pool.acquireTimeoutMs,
          lock_timeout: pool.lockTimeoutMs,
          statement_timeout: pool.statementTimeoutMs,
        };
  return {
    type: 'postgres',
    url,
    entities,
    migrations,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'schema_migrations',
    extra,
  };
}

/** For the TypeORM CLI (migration:generate / revert): DATABASE_URL must be set. */
export default new DataSource(dataSourceOptions(loadConfig().databaseUrl ?? 'postgres://localhost/receivables', 'unbounded'));
