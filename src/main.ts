// Starts the service: configuration, database (embedded unless DATABASE_URL), migrations, HTTP(S).
import 'reflect-metadata';
import { createApp } from './app.setup.js';
import { ConfigError, loadConfig } from './config/app.config.js';
import { connectDatabase } from './database/connect.js';
import { runMigrations } from './database/migrate.js';
import { createRootLogger } from './logging/logger.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createRootLogger(config.logLevel);
  const database = await connectDatabase(config, (line) => log.info(line));
  const applied = await runMigrations(database.url);
  if (applied.length) log.info({ migrations: applied }, 'migrations applied');
  const app = await createApp(config, database.url, log);
  await app.listen(config.port, config.host);
  log.info(`Receivables service (${config.env}) listening on ${await app.getUrl()}; public URL ${config.publicUrl}`);
  const shutdown = async (signal: string) => {
    log.info(`${signal}: shutting down`);
    await app.close();
    await database.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
