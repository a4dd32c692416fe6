// Child process of the erp-pull scenario. `download`: reads the pages a first pull reads with the
// service's ODataClient (parsed, then discarded) and once more as raw bytes; `pull`: boots the service's
// modules and runs one pull through ErpPullService exactly as the job queue's worker would (a first
// one creates the company and connection, a repeated one finds them).
import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { Agent, request } from 'undici';
import { AppModule } from '../../src/app.module.js';
import type { CompanyContext } from '../../src/auth/principal.js';
import { CompaniesService } from '../../src/companies/companies.service.js';
import { toPublicId } from '../../src/common/ids.js';
import { loadConfig } from '../../src/config/app.config.js';
import { createODataClient } from '../../src/connectors/odata-client.factory.js';
import type { CreateErpConnectionDto } from '../../src/erp-pull/connections/dto/erp-connection.dto.js';
import { ErpConnectionsService } from '../../src/erp-pull/connections/erp-connections.service.js';
import { SAP_MAPPING, SAP_SERVICE_PATHS, selectedProperties } from '../../src/erp-pull/mapping/erp-mapping.js';
import { ErpPullService } from '../../src/erp-pull/run/erp-pull.service.js';
import type { RunCounts } from '../../src/erp-pull/run/pull-run.entity.js';
import { PullRunsRepository } from '../../src/erp-pull/run/pull-runs.repository.js';
import { runTaskForParent } from '../support/child-task.js';

export interface ErpTaskOptions {
  mode: 'download' | 'pull';
  origin: string;
  ca: string;
  clientId: string;
  clientSecret: string;
  pageSize: number;
  databaseUrl?: string;
  /** pull: the database has had a first pull; read the same records again. */
  repeat?: boolean;
  /** pull: `full` reads every customer and open item and reconciles the open invoices that left the list. */
  pullMode?: 'incremental' | 'full';
  /** pull: how the round is called in the report. */
  label?: string;
}

export interface DownloadResult {
  parsedMs: number;
  rawMs: number;
  records: number;
  requests: number;
  bytes: number;
}

export interface PullRound {
  label: string;
  ms: number;
  status: string;
  pages: number;
  requests: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  error: string | null;
  counts: RunCounts;
}

const and = (...parts: string[]) => parts.map((p) => `(${p})`).join(' and ');

async function download(options: ErpTaskOptions): Promise<DownloadResult> {
  const urls: string[] = [];
  const client = createODataClient(
    {
      baseUrl: options.origin,
      version: 'v2',
      caCertificates: options.ca,
      allowPrivateNetworks: true,
      timeouts: { connectMs: 10_000, headersMs: 60_000, bodyMs: 60_000 },
      retry: { retries: 3, baseDelayMs: 1000, maxRetryAfterMs: 60_000 },
      requestIdPrefix: 'bench-download',
      onExchange: (event) => urls.push(event.url),
    },
    { method: 'oauth_client_credentials', tokenUrl: `${options.origin}/oauth/token`, clientId: options.clientId, clientSecret: options.clientSecret },
  );
  const select = selectedProperties(SAP_MAPPING);
  const { customers, receivables } = SAP_MAPPING;
  let records = 0;
  const started = performance.now();
  const queries = [
    { path: `${SAP_SERVICE_PATHS.customers}${customers.entity_set}`, query: { select: select.customers, filter: and(customers.filter!), orderby: customers.key }, key: customers.key },
    { path: `${SAP_SERVICE_PATHS.receivables}${receivables.entity_set}`, query: { select: select.receivables, filter: and(receivables.filter!, receivables.open_filter), orderby: receivables.key }, key: receivables.key },
  ];
  for (const { path, query, key } of queries) {
    for await (const page of client.pages(path, query, { pageSize: options.pageSize, keyFields: key })) records += page.records.length;
  }
  const parsedMs = performance.now() - started;
  await client.close();

  // The same requests once more, bodies read as bytes and dropped: the transfer alone.
  const agent = new Agent({ connect: { ca: options.ca, minVersion: 'TLSv1.2' }, connections: 4 });
  const tokenAnswer = await request(`${options.origin}/oauth/token`, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: options.clientId, client_secret: options.clientSecret }).toString(),
  });
  const token = (JSON.parse(await tokenAnswer.body.text()) as { access_token: string }).access_token;
  let bytes = 0;
  const rawStarted = performance.now();
  for (const url of urls.filter((u) => !u.endsWith('/oauth/token'))) {
    const res = await request(url, { dispatcher: agent, headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
    for await (const chunk of res.body) bytes += (chunk as Buffer).length;
  }
  const rawMs = performance.now() - rawStarted;
  await agent.close();
  return { parsedMs: Math.round(parsedMs), rawMs: Math.round(rawMs), records, requests: urls.length, bytes };
}

async function pull(options: ErpTaskOptions): Promise<PullRound> {
  const databaseUrl = options.databaseUrl!;
  const config = loadConfig({
    APP_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'https://receivables.bench',
    DATABASE_URL: databaseUrl,
    ERP_ALLOW_PRIVATE_NETWORKS: 'true',
    ERP_PULL_WORKER: 'false',
    PUSH_WORKER: 'false',
    SHIPPING_WORKERS: 'false',
    JOBS_SCHEDULE: 'false',
    JOBS_SUPERVISE: 'false',
  });
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, databaseUrl), { logger: false });
  try {
    const company = await companyOf(app, options);
    const [{ id: connectionId }] = (await app.get(DataSource).query(`SELECT id FROM erp_connections WHERE company_id = $1`, [company.id])) as Array<{ id: string }>;
    const pulls = app.get(ErpPullService);
    const run = await pulls.startNow(company, toPublicId('erp', connectionId), options.pullMode ?? 'incremental');
    const started = performance.now();
    await pulls.handleJob({ companyId: company.id, runId: run.id });
    const ms = Math.round(performance.now() - started);
    const done = (await app.get(PullRunsRepository).findById(company.id, run.id))!;
    const label = options.label ?? (options.repeat ? 'repeated pull' : 'first pull');
    return {
      label,
      ms,
      status: done.status,
      pages: done.pages,
      requests: done.requests,
      created: done.created,
      updated: done.updated,
      unchanged: done.unchanged,
      failed: done.failed,
      error: done.error,
      counts: done.counts,
    };
  } finally {
    await app.close();
  }
}

/** A first pull creates the company and its connection; a repeated one finds them. */
async function companyOf(app: INestApplicationContext, options: ErpTaskOptions): Promise<CompanyContext> {
  if (options.repeat) {
    const [row] = (await app.get(DataSource).query(`SELECT id, name, time_zone FROM companies LIMIT 1`)) as Array<{ id: string; name: string; time_zone: string }>;
    return { id: row.id, name: row.name, timeZone: row.time_zone };
  }
  const created = await app.get(CompaniesService).createCompany('Bench GmbH', `bench-${Date.now()}@example.com`, 'Sicher!Passwort1');
  const company = { id: created.company.id, name: created.company.name, timeZone: created.company.timeZone };
  const dto = {
    name: 'Bench SAP',
    base_url: options.origin,
    odata_version: 'v2',
    auth_method: 'oauth_client_credentials',
    token_url: `${options.origin}/oauth/token`,
    client_id: options.clientId,
    client_secret: options.clientSecret,
    ca_certificates: options.ca,
    page_size: options.pageSize,
  } as unknown as CreateErpConnectionDto;
  await app.get(ErpConnectionsService).create(company, dto);
  return company;
}

runTaskForParent<ErpTaskOptions, DownloadResult | PullRound>((options) => (options.mode === 'download' ? download(options) : pull(options)));
