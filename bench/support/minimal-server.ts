// What every minimal server of issue 21's yardstick shares: plain node:http + pg, the token cache with
// the service's semantics (src/auth/credential-cache.ts: found tokens kept for the service's TTL by the
// token's SHA-256, concurrent requests sharing one lookup, unknown tokens looked up again, the cache
// cleared at 10,000 entries), the wire's number and date formats, and nothing else: no framework, no
// logging, no request id, no rate limit. Each server's statements are named, so PostgreSQL plans them
// once per connection.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { formatDateTime } from '../../src/common/dates.js';
import { serveForParent } from './child-server.js';

export interface MinimalServerOptions {
  databaseUrl: string;
  publicUrl: string;
  poolSize: number;
  /** The service's API_TOKEN_CACHE_SECONDS, in ms. */
  tokenCacheMs: number;
}

export interface Company {
  id: string;
  timeZone: string;
}

/** [status, body]: the body is the exact JSON text. */
export type Answer = [number, string];

export type Route = (company: Company, path: string, query: URLSearchParams) => Promise<Answer> | undefined;

const TOKEN_HEADER = /^Token\s+token=("?)([A-Za-z0-9_\-.~+/=]{1,512})\1\s*$/i;
const MAX_TOKENS = 10_000;
const FIND_TOKEN = {
  name: 'minimal.find_token',
  text: `SELECT c.id, c.time_zone FROM api_tokens t JOIN companies c ON c.id = t.company_id
          WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
};

/** The token cache: what an authenticated request must do at least. */
function tokenCache(pool: pg.Pool, ttlMs: number): (token: string) => Promise<Company | undefined> {
  const entries = new Map<string, { lookup: Promise<Company | undefined>; until: number }>();
  return async (token) => {
    const hash = createHash('sha256').update(token, 'utf8').digest();
    const key = hash.toString('base64');
    const now = Date.now();
    const cached = entries.get(key);
    if (cached && cached.until > now) return cached.lookup;
    if (entries.size >= MAX_TOKENS) entries.clear();
    const lookup = pool
      .query<{ id: string; time_zone: string }>({ ...FIND_TOKEN, values: [hash] })
      .then(({ rows: [row] }) => row && { id: row.id, timeZone: row.time_zone });
    entries.set(key, { lookup, until: now + ttlMs });
    const found = await lookup.catch((error: unknown) => {
      entries.delete(key);
      throw error;
    });
    if (!found) entries.delete(key);
    return found;
  };
}

const HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

function send(res: ServerResponse, [status, body]: Answer): void {
  res.writeHead(status, { ...HEADERS, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Runs a minimal server for the bench's parent process: `routes` answers authenticated GETs. */
export function serveMinimal<T extends MinimalServerOptions>(routes: (pool: pg.Pool, options: T) => Route): void {
  serveForParent<T>(async (options) => {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize });
    const companyOf = tokenCache(pool, options.tokenCacheMs);
    const route = routes(pool, options);
    const answer = async (req: IncomingMessage): Promise<Answer> => {
      const match = TOKEN_HEADER.exec(req.headers.authorization ?? '');
      const company = match ? await companyOf(match[2]) : undefined;
      if (!company) return [401, '{"title":"unauthorized"}'];
      const url = req.url ?? '/';
      const at = url.indexOf('?');
      const path = at < 0 ? url : url.slice(0, at);
      const answered = req.method === 'GET' ? route(company, path, new URLSearchParams(at < 0 ? '' : url.slice(at + 1))) : undefined;
      return (await answered) ?? [404, '{"title":"not found"}'];
    };
    const server = createServer((req, res) => {
      answer(req).then(
        (a) => send(res, a),
        (error: unknown) => send(res, [500, JSON.stringify({ title: String(error) })]),
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
}

/** A numeric as the wire shows it (src/common/money.ts formatDecimal): "119.0", "12.5", no trailing zeros. */
export function wireDecimal(text: string): string {
  if (!text.includes('.')) return `${text}.0`;
  const trimmed = text.replace(/0+$/, '');
  return trimmed.endsWith('.') ? `${trimmed}0` : trimmed;
}

/** Epoch seconds (as the statements select them) as the wire's datetime in the company's zone. */
export function wireDateTime(epochSeconds: number | null, timeZone: string): string | null {
  return epochSeconds === null ? null : formatDateTime(new Date(epochSeconds * 1000), timeZone);
}

/** A timestamptz column as epoch seconds, for wireDateTime. */
export const epoch = (column: string) => `extract(epoch FROM ${column})::float8`;

/** The page's meta object (src/common/pagination.ts pageMeta), from the page asked for and the total. */
export function pageMetaJson(page: number, perPage: number, total: number): string {
  const totalPages = Math.ceil(total / perPage);
  return JSON.stringify({
    current_page: page,
    next_page: page < totalPages ? page + 1 : null,
    prev_page: page > 1 ? page - 1 : null,
    total_pages: totalPages,
    per_page: perPage,
    total_count: total,
  });
}

/** page / per_page as the service reads them; undefined for a malformed one (the service answers 400). */
export function pageOf(query: URLSearchParams): { page: number; perPage: number; offset: number } | undefined {
  const int = (raw: string | null, fallback: number, max: number) =>
    raw === null ? fallback : /^\d{1,9}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= max ? Number(raw) : undefined;
  const page = int(query.get('page'), 1, 10_000_000);
  const perPage = int(query.get('per_page'), 30, 100);
  return page === undefined || perPage === undefined ? undefined : { page, perPage, offset: (page - 1) * perPage };
}

export interface AddressColumns {
  address_line1: string;
  address_line2: string | null;
  address_line3: string;
  address_line4: string | null;
  zip: string;
  city: string;
  country_code: string;
}

/** The postal address as src/customers/address.ts composes it: a line per part, empty parts skipped. */
export function wireAddress(c: AddressColumns): string {
  const cityLine = c.zip && c.city ? `${c.zip} ${c.city}` : c.zip || c.city;
  let text = '';
  for (const line of [c.address_line1, c.address_line2, c.address_line3, c.address_line4, cityLine, c.country_code]) {
    const trimmed = line?.trim();
    if (trimmed) text = text ? `${text}\n${trimmed}` : trimmed;
  }
  return text;
}

/** The address columns of a customers row aliased `alias`. */
export const addressColumns = (alias: string) =>
  ['address_line1', 'address_line2', 'address_line3', 'address_line4', 'zip', 'city', 'country_code']
    .map((c) => `${alias}.${c}`)
    .join(', ');
