// Issue 21: reading invoices through the service versus the minimal node:http + pg server
// (invoices-read.minimal-server.ts) over 100,000 invoices of one company (invoices-read.seed.ts):
// an invoice in default with its payments, reminders and accrued interest by id, and page 2 of the
// invoices with status "sent" (15,000 of them, the largest open status), at 64 connections. Both are
// checked to answer the same bytes for several invoices and pages first; targets in support/read-comparison.ts.
import type { BenchContext, Scenario, ScenarioReport } from '../scenario.js';
import { compareReads, type ReadEndpoint, readReport, type ServerUnderTest } from '../support/read-comparison.js';
import { CONNECTIONS, minimalOptions, PUBLIC_URL } from './customers.js';
import type { InvoicePageVariant, InvoicesMinimalOptions } from './invoices-read.minimal-server.js';
import { seedInvoicesRead } from './invoices-read.seed.js';
import { INVOICES } from './web.seed.js';

const STATUS = 'sent';

const minimalServer = (pageVariant: InvoicePageVariant): ServerUnderTest => ({
  key: pageVariant === 'correlated' ? 'minimal' : `minimal_${pageVariant}`,
  label: `minimal node:http + pg${pageVariant === 'correlated' ? '' : ` (page: ${pageVariant})`}`,
  entry: new URL('./invoices-read.minimal-server.js', import.meta.url),
  options: (databaseUrl): InvoicesMinimalOptions => ({ ...minimalOptions(databaseUrl), pageVariant }),
});
const minimal = minimalServer('correlated');

/**
 * The service at info (as production) and silent. Its job schedule is off: the daily dunning run would
 * otherwise start over these invoices whenever the bench runs past the policy's run time.
 */
const services: ServerUnderTest[] = ['info', 'silent'].map((level) => ({
  key: `service_log_${level}`,
  label: `service, LOG_LEVEL=${level}${level === 'silent' ? '' : ' > /dev/null'}`,
  entry: new URL('../support/service-server.js', import.meta.url),
  options: (databaseUrl) => ({ databaseUrl, env: { LOG_LEVEL: level, PUBLIC_URL, JOBS_SCHEDULE: 'false' } }),
}));

const servers = [minimal, ...services];

const run =
  (servers: ServerUnderTest[]) =>
  async (ctx: BenchContext): Promise<ScenarioReport> => {
    const databaseUrl = await ctx.server.freshDatabase('invoices_read');
    ctx.log(`invoices-read: seeding ${INVOICES} invoices`);
    const { token, invoiceIds } = await seedInvoicesRead(databaseUrl);
    const endpoints: ReadEndpoint[] = [
      { key: 'get', label: 'GET /api/v1/invoices/<id>', kind: 'get', path: `/api/v1/invoices/${invoiceIds[0]}` },
      {
        key: 'list',
        label: `GET /api/v1/invoices?page=2&status=${STATUS}`,
        kind: 'page',
        path: `/api/v1/invoices?page=2&status=${STATUS}`,
      },
    ];
    const checkPaths = [
      ...invoiceIds.slice(1).map((id) => `/api/v1/invoices/${id}`),
      '/api/v1/invoices?page=3',
      '/api/v1/invoices?status=reminder2_sent&per_page=50',
      '/api/v1/invoices?status=paid&page=40',
      '/api/v1/invoices?status=sent_to_dept_collection&page=100&per_page=7',
    ];
    const read = { databaseUrl, headers: { authorization: `Token token=${token}` }, endpoints, checkPaths, setup: undefined };
    const comparison = await compareReads(ctx, 'invoices-read', servers, read, CONNECTIONS);
    return readReport(comparison, {
      servers: servers,
      endpoints,
      minimal: 'minimal',
      headline: 'service_log_info',
      notes: [
        `${CONNECTIONS} connections; ${INVOICES} invoices of one company (reminders, payments, default interest on the invoices in default).`,
        "  minimal: one named statement per request (interest as the service's SQL computes it), the token cached as the service caches it.",
      ],
      figures: { connections: CONNECTIONS, invoices: INVOICES, status: STATUS },
    });
  };

export const invoicesReadScenario: Scenario = {
  name: 'invoices-read',
  summary: `GET invoice / list page 2 of status=${STATUS} over ${INVOICES.toLocaleString('en')} invoices at ${CONNECTIONS} connections: service vs a minimal node:http + pg server`,
  run: run(servers),
};

/** Opt-in: the minimal server's page with payments and reminders grouped once and joined, against its default form. */
export const invoicesReadVariantsScenario: Scenario = {
  name: 'invoices-read-minimal-variants',
  summary: "the invoices minimal server with its page's payments and reminders grouped and joined instead of correlated subqueries",
  run: run([minimal, minimalServer('join'), services[0]]),
};
