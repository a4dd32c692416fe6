// TypeORM options shared by the app, the migration script and the TypeORM CLI. Schema comes only from migrations.
import { DataSource, type DataSourceOptions } from 'typeorm';
import { migrations } from '../../migrations/index.js';
import { entities } from './entities.js';
import { loadConfig } from '../config/app.config.js';

export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities,
    migrations,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'schema_migrations',
    extra: { max: 20 },
  };
}

/** For the TypeORM CLI (migration:generate / revert): DATABASE_URL must be set. */
export default new DataSource(dataSourceOptions(loadConfig().databaseUrl ?? 'postgres://localhost/receivables'));
