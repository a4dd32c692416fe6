// Issues 2 and 21: reading customers through the service versus a minimal node:http + pg server doing
// only the necessary work (customers.minimal-server.ts; the headline ratio, targets in
// support/read-comparison.ts) and the older bare server running the service's own SQL and serializer
// (customers.bare-server.ts; a second column), at 64 connections.
//
// Placement on the 2-core machine: autocannon runs in the bench's main process (one thread), each
// server under test in a child process of its own (one JS thread), PostgreSQL in its own processes.
// All servers start first and are then loaded one at a time, endpoint by endpoint (bare, service,
// service...), so a slow drift of the machine (another job, a warm cache) falls on every side alike.
// Nothing is pinned (taskset): the OS balances load generator, server and PostgreSQL the same way for
// the service and the bare server, so the ratio is fair although the absolute figures are lower than
// with a separate load machine. The server's CPU ms per request is printed as well: it is the cost of
// a request, and it stays meaningful when the machine is shared.
import { dataSourceOptions } from '../../src/database/data-source.js';
import { loadConfig } from '../../src/config/app.config.js';
import type { BenchContext, Scenario, ScenarioReport } from '../scenario.js';
import type { ChildServer } from '../support/child-server.js';
import type { MinimalServerOptions } from '../support/minimal-server.js';
import { compareReads, type ReadEndpoint, readReport, type ServerUnderTest as Server, startAndCheck } from '../support/read-comparison.js';
import type { BareServerOptions } from './customers.bare-server.js';
import { captureStatements } from './customers.capture.js';
import type { PageVariant } from './customers.minimal-sql.js';
import type { CustomersMinimalOptions } from './customers.minimal-server.js';
import { seedCustomers } from './customers.seed.js';
import type { CustomerStatements } from './customers.statements.js';

export const CONNECTIONS = 64;
const CUSTOMERS = 100;
export const PUBLIC_URL = 'https://receivables.bench';

export type ServerUnderTest = Server<CustomerStatements>;

export const bare: ServerUnderTest = {
  key: 'bare',
  label: 'bare node:http + pg',
  entry: new URL('./customers.bare-server.js', import.meta.url),
  // The pool of the service's DataSource, so both sides have as many database connections.
  options: (databaseUrl, statements): BareServerOptions => ({
    databaseUrl,
    publicUrl: PUBLIC_URL,
    poolSize: poolSizeOf(databaseUrl),
    statements,
  }),
};

/** What every minimal server gets: the service's pool size and token cache time. */
export function minimalOptions(databaseUrl: string): MinimalServerOptions {
  const config = loadConfig({ APP_ENV: 'test', DATABASE_URL: databaseUrl, PUBLIC_URL });
  return { databaseUrl, publicUrl: PUBLIC_URL, poolSize: poolSizeOf(databaseUrl), tokenCacheMs: config.tokenCacheSeconds * 1000 };
}

/** The yardstick of issue 21: the least work that answers the service's bytes (customers.minimal-server.ts). */
export const minimalServer = (pageVariant: PageVariant = 'join', json: 'js' | 'sql' = 'js'): ServerUnderTest => {
  const variant = [pageVariant === 'join' ? '' : `page: ${pageVariant}`, json === 'js' ? '' : `JSON by SQL`].filter(Boolean).join(', ');
  return {
    key: ['minimal', pageVariant === 'join' ? '' : pageVariant, json === 'js' ? '' : 'json_sql'].filter(Boolean).join('_'),
    label: `minimal node:http + pg${variant ? ` (${variant})` : ''}`,
    entry: new URL('./customers.minimal-server.js', import.meta.url),
    options: (databaseUrl): CustomersMinimalOptions => ({ ...minimalOptions(databaseUrl), pageVariant, json }),
  };
};

/** The real service, logging at info (as production does) into /dev/null, and silent. */
export const services: ServerUnderTest[] = ['info', 'silent'].map((level) => ({
  key: `service_log_${level}`,
  label: `service, LOG_LEVEL=${level}${level === 'silent' ? '' : ' > /dev/null'}`,
  entry: new URL('../support/service-server.js', import.meta.url),
  options: (databaseUrl) => ({ databaseUrl, env: { LOG_LEVEL: level, PUBLIC_URL } }),
}));

const servers = [minimalServer(), bare, ...services];

export const endpoints = [
  { key: 'get', label: 'GET /api/v1/customers/<id>', kind: 'get', path: (ids: string[]) => `/api/v1/customers/${ids[41]}` },
  { key: 'list', label: 'GET /api/v1/customers?page=2', kind: 'page', path: () => '/api/v1/customers?page=2' },
] as const;

/** Checked byte for byte as well, before the load: other ids, the first, a partial and an empty page, per_page. */
const checkPaths = (ids: string[]) => [
  ...[0, 7, 99].map((i) => `/api/v1/customers/${ids[i]}`),
  '/api/v1/customers',
  '/api/v1/customers?page=4',
  '/api/v1/customers?page=9',
  '/api/v1/customers?page=3&per_page=7',
];

function poolSizeOf(databaseUrl: string): number {
  const extra = dataSourceOptions(databaseUrl).extra as { max?: number } | undefined;
  return extra?.max ?? 10;
}

interface Seeded {
  databaseUrl: string;
  statements: CustomerStatements;
  headers: Record<string, string>;
  paths: string[];
  ids: string[];
}

async function seed(ctx: BenchContext): Promise<Seeded> {
  const databaseUrl = await ctx.server.freshDatabase('customers');
  const seeded = await seedCustomers(databaseUrl, CUSTOMERS);
  const statements = await captureStatements(databaseUrl, seeded.companyId, seeded.customerUuids);
  const headers = { authorization: `Token token=${seeded.token}` };
  return { databaseUrl, statements, headers, paths: endpoints.map((e) => e.path(seeded.customerIds)), ids: seeded.customerIds };
}

export interface Started {
  children: Map<ServerUnderTest, ChildServer>;
  headers: Record<string, string>;
  /** One path per endpoint. */
  paths: string[];
  /** The first server's response bodies, one per endpoint; every other server answered the same bytes. */
  bodies: string[];
  /** Stops every server; returns each one's peak RSS (MB) by key. */
  stop: () => Promise<Record<string, number>>;
}

/** Seeds a fresh database, starts every server and checks that they all answer the first one's bytes. */
export async function startServers(ctx: BenchContext, servers: ServerUnderTest[]): Promise<Started> {
  const { databaseUrl, statements, headers, paths } = await seed(ctx);
  const readEndpoints = endpoints.map((e, i): ReadEndpoint => ({ ...e, path: paths[i] }));
  const started = await startAndCheck(ctx, 'customers', servers, {
    databaseUrl,
    headers,
    endpoints: readEndpoints,
    checkPaths: [],
    setup: statements,
  });
  return { ...started, children: started.children as unknown as Started['children'], headers, paths };
}

async function runComparison(ctx: BenchContext, servers: ServerUnderTest[], notes: string[]): Promise<ScenarioReport> {
  const { databaseUrl, statements, headers, paths, ids } = await seed(ctx);
  const readEndpoints = endpoints.map((e, i): ReadEndpoint => ({ key: e.key, label: e.label, kind: e.kind, path: paths[i] }));
  const read = { databaseUrl, headers, endpoints: readEndpoints, checkPaths: checkPaths(ids), setup: statements };
  const comparison = await compareReads(ctx, 'customers', servers, read, CONNECTIONS);
  return readReport(comparison, {
    servers: servers,
    endpoints: readEndpoints,
    minimal: 'minimal',
    bare: servers.includes(bare) ? 'bare' : undefined,
    headline: 'service_log_info',
    notes: [`${CONNECTIONS} connections, ${CUSTOMERS} customers with 2 contacts each.`, ...notes],
    figures: { connections: CONNECTIONS, customers: CUSTOMERS },
  });
}

export const customersScenario: Scenario = {
  name: 'customers',
  summary: `GET customer / list page 2 at ${CONNECTIONS} connections: service vs a minimal node:http + pg server (issue 21) and the bare one`,
  run: (ctx) =>
    runComparison(ctx, servers, [
      'minimal: one named statement per request, the token cached as the service caches it (customers.minimal-server.ts); bare: the',
      "  service's statements and serializer on node:http, the token looked up every time (customers.bare-server.ts).",
    ]),
};

/** Opt-in: the minimal server's other forms side by side, to keep the faster (README, issue 21). */
export const customersMinimalVariantsScenario: Scenario = {
  name: 'customers-minimal-variants',
  summary:
    'the minimal server with its page by a correlated subquery, and with GET by id built as JSON by PostgreSQL, against its default form',
  run: (ctx) =>
    runComparison(
      ctx,
      [minimalServer(), minimalServer('correlated'), minimalServer('join', 'sql'), services[0]],
      ['Which form of the minimal server is faster: contacts of the page by a correlated subquery or a join, JSON built in JS or by SQL.'],
    ),
};
