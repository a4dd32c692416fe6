// Child process entry: the baseline for the customers bench. A bare node:http handler with a pg.Pool
// of the service's size that does the service's work per request and nothing else: the same SQL
// statements (captured from the service's repositories, run in the same order on the same kind of
// connection), the same serializer functions, JSON.stringify. No framework, no logging, no request id,
// no rate limit, no ETag.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { hashSecret } from '../../src/auth/secrets.js';
import { parsePublicId } from '../../src/common/ids.js';
import { pageMeta, parsePageRequest } from '../../src/common/pagination.js';
import type { Contact } from '../../src/contacts/contact.entity.js';
import { serializeCustomer, type SerializeContext } from '../../src/customers/customer.serializer.js';
import { serveForParent } from '../support/child-server.js';
import {
  contactsSql,
  countNeeded,
  countOf,
  type CustomerStatements,
  pageSql,
  type Row,
  toContact,
  toCustomer,
  type TokenRow,
} from './customers.statements.js';

export interface BareServerOptions {
  databaseUrl: string;
  publicUrl: string;
  poolSize: number;
  statements: CustomerStatements;
}

const TOKEN_HEADER = /^Token\s+token=("?)([A-Za-z0-9_\-.~+/=]{1,512})\1\s*$/i;

interface Company {
  id: string;
  ctx: SerializeContext;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

serveForParent<BareServerOptions>(async ({ databaseUrl, publicUrl, poolSize, statements: sql }) => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });

  async function authenticate(req: IncomingMessage): Promise<Company | undefined> {
    const match = TOKEN_HEADER.exec(req.headers.authorization ?? '');
    if (!match) return undefined;
    const { rows } = await pool.query<TokenRow>(sql.token, [hashSecret(match[2])]);
    return rows[0] && { id: rows[0].company_id, ctx: { timeZone: rows[0].time_zone, publicUrl } };
  }

  async function contactsOf(companyId: string, customerIds: string[]): Promise<Map<string, Contact[]>> {
    const byCustomer = new Map<string, Contact[]>(customerIds.map((id) => [id, []]));
    if (customerIds.length === 0) return byCustomer;
    const { rows } = await pool.query<Row>(contactsSql(sql, customerIds.length), [companyId, ...customerIds]);
    for (const row of rows) {
      const contact = toContact(sql, row);
      byCustomer.get(contact.customerId)?.push(contact);
    }
    return byCustomer;
  }

  async function getCustomer(company: Company, publicId: string): Promise<[number, unknown]> {
    const id = parsePublicId('cus', publicId);
    const { rows } = id ? await pool.query<Row>(sql.customer, [company.id, id]) : { rows: [] };
    if (rows.length === 0) return [404, { title: 'not found' }];
    const customer = toCustomer(sql, rows[0]);
    const contacts = await contactsOf(company.id, [customer.id]);
    return [200, serializeCustomer(customer, contacts.get(customer.id) ?? [], company.ctx)];
  }

  async function listCustomers(company: Company, query: string): Promise<[number, unknown]> {
    const page = parsePageRequest(Object.fromEntries(new URLSearchParams(query)));
    // One connection for the page and the count, one after the other, as TypeORM's findAndCount does.
    const client = await pool.connect();
    let rows: Row[];
    let total: number;
    try {
      rows = (await client.query<Row>(pageSql(sql, page.perPage, page.offset), [company.id])).rows;
      total = countNeeded(rows.length, page.perPage, page.offset)
        ? countOf((await client.query<Row>(sql.count, [company.id])).rows[0])
        : page.offset + rows.length;
    } finally {
      client.release();
    }
    const customers = rows.map((row) => toCustomer(sql, row));
    const contacts = await contactsOf(
      company.id,
      customers.map((c) => c.id),
    );
    const items = customers.map((c) => serializeCustomer(c, contacts.get(c.id) ?? [], company.ctx));
    return [200, { customers: items, meta: pageMeta(page, total) }];
  }

  const server = createServer((req, res) => {
    const [path, query = ''] = (req.url ?? '/').split('?', 2);
    authenticate(req)
      .then(async (company): Promise<[number, unknown]> => {
        if (!company) return [401, { title: 'unauthorized' }];
        if (req.method === 'GET' && path === '/api/v1/customers') return listCustomers(company, query);
        const single = /^\/api\/v1\/customers\/([^/]+)$/.exec(path);
        if (req.method === 'GET' && single) return getCustomer(company, decodeURIComponent(single[1]));
        return [404, { title: 'not found' }];
      })
      .then(
        ([status, body]) => send(res, status, body),
        (error: unknown) => send(res, 500, { title: String(error) }),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await pool.end();
    },
  };
});
