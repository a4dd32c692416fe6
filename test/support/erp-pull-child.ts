// Child process for the kill test: boots the service's modules against the test database and
// executes one pull run; the parent SIGKILLs it midway. Argument: JSON {databaseUrl, companyId, runId}.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/config/app.config.js';
import { ErpPullService } from '../../src/erp-pull/run/erp-pull.service.js';

const { databaseUrl, companyId, runId } = JSON.parse(process.argv[2]) as { databaseUrl: string; companyId: string; runId: string };
const config = loadConfig({
  APP_ENV: 'test',
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'https://receivables.test',
  ERP_ALLOW_PRIVATE_NETWORKS: 'true',
  ERP_PULL_WORKER: 'false',
  PUSH_WORKER: 'false',
  SHIPPING_WORKERS: 'false',
  JOBS_SCHEDULE: 'false',
  JOBS_SUPERVISE: 'false',
});
const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, databaseUrl), { logger: false });
process.send?.({ type: 'started', pid: process.pid });
await app.get(ErpPullService).handleJob({ companyId, runId });
process.send?.({ type: 'done' });
await app.close();
