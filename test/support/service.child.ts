// Child process entry: the real service (createApp, as src/main.ts builds it) on 127.0.0.1 and a free
// port, on the database the parent names, configured by the environment variables it passes.
// Tells the parent its port over IPC; logs go to stdout, which the parent reads.
import 'reflect-metadata';
import type { Server } from 'node:http';
import { createApp } from '../../src/app.setup.js';
import { loadConfig } from '../../src/config/app.config.js';

const { databaseUrl, env } = JSON.parse(process.argv[2] ?? '{}') as { databaseUrl: string; env: Record<string, string> };
process.once('disconnect', () => process.exit(1));
const config = loadConfig({ APP_ENV: 'test', HOST: '127.0.0.1', PORT: '0', ...env, DATABASE_URL: databaseUrl });
const app = await createApp(config, databaseUrl);
await app.listen(0, '127.0.0.1');
const address = (app.getHttpServer() as Server).address();
process.send!({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
