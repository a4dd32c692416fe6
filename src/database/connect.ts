// Where the database is: DATABASE_URL when configured, else the embedded server under DATA_DIR.
import type { AppConfig } from '../config/app.config.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';

export interface DatabaseHandle {
  url: string;
  stop(): Promise<void>;
}

export async function connectDatabase(config: AppConfig, log: (line: string) => void): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: () => Promise.resolve() };
  log(`No DATABASE_URL: starting the embedded PostgreSQL in ${config.dataDir}/postgres on port ${config.embeddedPgPort}`);
  return startEmbeddedPostgres(config.dataDir, config.embeddedPgPort);
}
