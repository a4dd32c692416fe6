// Child process entry: the real service, built by createApp exactly as src/main.ts builds it, on
// 127.0.0.1 and a free port. Configuration through loadConfig, from the variables the parent passes.
import 'reflect-metadata';
import type { Server } from 'node:http';
import { createApp } from '../../src/app.setup.js';
import { loadConfig } from '../../src/config/app.config.js';
import { serveForParent } from './child-server.js';

export interface ServiceServerOptions {
  databaseUrl: string;
  /** Environment variables for loadConfig (LOG_LEVEL, PUBLIC_URL, ...); APP_ENV defaults to test. */
  env: Record<string, string>;
}

serveForParent<ServiceServerOptions>(async ({ databaseUrl, env }) => {
  const config = loadConfig({
    APP_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    // The bench is one credential sending thousands of requests a second: the limiter still counts
    // every request (its cost is measured) but must not answer 429.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    ...env,
    DATABASE_URL: databaseUrl,
  });
  const app = await createApp(config, databaseUrl);
  await app.listen(0, '127.0.0.1');
  const address = (app.getHttpServer() as Server).address();
  if (typeof address !== 'object' || !address) throw new Error('The service is not listening on a TCP port');
  return { port: address.port, close: () => app.close() };
});
