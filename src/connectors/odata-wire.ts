// The OData wire formats: query strings for V2 and V4, and their JSON payloads turned into plain
// records of one shape (navigation properties as arrays, dates as ISO text, no metadata). Decimals stay
// the strings the server sent: the mapping reads them with decimal.js, never as binary floats.

export type ODataVersion = 'v2' | 'v4';
export type ODataRecord = Record<string, unknown>;

export interface ODataQuery {
  /** Property paths; `nav/Property` selects through a navigation property, which is then expanded. */
  select?: readonly string[];
  filter?: string;
  /** Keep it stable (the key): $skip paging is only correct over a total order. */
  orderby?: readonly string[];
  top?: number;
  skip?: number;
  /** Ask for the total ($inlinecount=allpages in V2, $count=true in V4). */
  count?: boolean;
}

export interface ParsedPayload {
  records: ODataRecord[];
  /** The server's next link as sent (resolve it before use). */
  next?: string;
  count?: number;
}

interface ExpandNode {
  select: string[];
  expand: Map<string, ExpandNode>;
}

function selectTree(paths: readonly string[]): ExpandNode {
  const root: ExpandNode = { select: [], expand: new Map() };
  for (const path of paths) {
    const parts = path.split('/');
    let node = root;
    for (const nav of parts.slice(0, -1)) {
      if (!node.expand.has(nav)) node.expand.set(nav, { select: [], expand: new Map() });
      node = node.expand.get(nav)!;
    }
    const leaf = parts[parts.length - 1];
    if (!node.select.includes(leaf)) node.select.push(leaf);
  }
  return root;
}

/** V4 nests select and expand: nav($select=a,b;$expand=inner($select=c)). */
function v4Expand(expand: Map<string, ExpandNode>): string {
  return [...expand.entries()]
    .map(([nav, node]) => {
      const options = [
        node.select.length ? `$select=${node.select.join(',')}` : '',
        node.expand.size ? `$expand=${v4Expand(node.expand)}` : '',
      ]
        .filter(Boolean)
        .join(';');
      return options ? `${nav}(${options})` : nav;
    })
    .join(',');
}

/** V2 lists every expanded navigation path: nav,nav/inner. */
function v2Expand(paths: readonly string[]): string[] {
  const navs = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) navs.add(parts.slice(0, i).join('/'));
  }
  return [...navs];
}

/** The query parameters in OData's own spelling ($-names unencoded, values percent-encoded). */
export function queryString(version: ODataVersion, query: ODataQuery): string {
  const params: Array<[string, string]> = [];
  if (query.select?.length) {
    if (version === 'v2') {
      params.push(['$select', query.select.join(',')]);
      const expand = v2Expand(query.select);
      if (expand.length) params.push(['$expand', expand.join(',')]);
    } else {
      const tree = selectTree(query.select);
      if (tree.select.length) params.push(['$select', tree.select.join(',')]);
      if (tree.expand.size) params.push(['$expand', v4Expand(tree.expand)]);
    }
  }
  if (query.filter) params.push(['$filter', query.filter]);
  if (query.orderby?.length) params.push(['$orderby', query.orderby.join(',')]);
  if (query.top !== undefined) params.push(['$top', String(query.top)]);
  if (query.skip) params.push(['$skip', String(query.skip)]);
  if (query.count) params.push(version === 'v2' ? ['$inlinecount', 'allpages'] : ['$count', 'true']);
  return params.map(([name, value]) => `${name}=${encodeURIComponent(value).replace(/%2C/g, ',').replace(/%2F/g, '/')}`).join('&');
}

/** A date literal for $filter: V2 `datetime'2026-01-31T00:00:00'`, V4 an Edm.Date `2026-01-31`. */
export function dateLiteral(version: ODataVersion, isoDate: string): string {
  return version === 'v2' ? `datetime'${isoDate}T00:00:00'` : isoDate;
}

export function stringLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

const V2_DATE = /^\/Date\((-?\d+)(?:[+-]\d{4})?\)\/$/;

/** Pages repeat a few hundred distinct dates thousands of times: each is converted once. */
const v2Dates = new Map<string, string | undefined>();

/** `/Date(ms)/` and `/Date(ms+0000)/` (milliseconds since the epoch, UTC) → ISO 8601 in UTC. */
export function v2Date(text: string): string | undefined {
  if (v2Dates.has(text)) return v2Dates.get(text);
  const match = V2_DATE.exec(text);
  const date = match ? new Date(Number(match[1])) : undefined;
  const iso = date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
  if (v2Dates.size >= 10_000) v2Dates.clear();
  v2Dates.set(text, iso);
  return iso;
}

function normalizeValue(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.charCodeAt(0) === 47 /* "/" */ ? (v2Date(value) ?? value) : value;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (value[i] && typeof value[i] === 'object') normalizeRecord(value[i] as ODataRecord);
    return value;
  }
  if (value && typeof value === 'object') {
    const object = value as ODataRecord;
    if ('__deferred' in object) return undefined;
    if (Array.isArray(object.results)) return normalizeValue(object.results);
    return normalizeRecord(object);
  }
  return value;
}

/**
 * Drops metadata (`__metadata`, `@odata.*`), unwraps V2 `{results: [...]}`, converts V2 dates. In place:
 * the records are fresh from JSON.parse, and a page of thousands should not be copied once more.
 */
export function normalizeRecord(record: ODataRecord): ODataRecord {
  for (const key in record) {
    const first = key.charCodeAt(0);
    if (first === 64 /* @ */ || (first === 95 /* _ */ && key.startsWith('__'))) {
      delete record[key];
      continue;
    }
    const value = record[key];
    if (value === null || typeof value === 'number' || typeof value === 'boolean') continue;
    const normalized = normalizeValue(value);
    if (normalized === undefined) delete record[key];
    else if (normalized !== value) record[key] = normalized;
  }
  return record;
}

function countOf(raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const count = Number(raw);
  return Number.isInteger(count) && count >= 0 ? count : undefined;
}

export class PayloadError extends Error {}

export function parsePayload(version: ODataVersion, body: string): ParsedPayload {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new PayloadError(`the response is not JSON (starts with ${JSON.stringify(body.slice(0, 60))})`);
  }
  if (version === 'v2') {
    const d = (json as { d?: unknown })?.d;
    if (Array.isArray(d)) return { records: d.map((r) => normalizeRecord(r as ODataRecord)) };
    const results = (d as { results?: unknown })?.results;
    if (!Array.isArray(results)) throw new PayloadError('not an OData V2 collection: expected {"d": {"results": [...]}}');
    const { __next: next, __count: count } = d as { __next?: unknown; __count?: unknown };
    return {
      records: results.map((r) => normalizeRecord(r as ODataRecord)),
      next: typeof next === 'string' && next ? next : undefined,
      count: countOf(count),
    };
  }
  const value = (json as { value?: unknown })?.value;
  if (!Array.isArray(value)) throw new PayloadError('not an OData V4 collection: expected {"value": [...]}');
  const object = json as Record<string, unknown>;
  const next = object['@odata.nextLink'] ?? object['@nextLink'];
  return {
    records: value.map((r) => normalizeRecord(r as ODataRecord)),
    next: typeof next === 'string' && next ? next : undefined,
    count: countOf(object['@odata.count'] ?? object['@count']),
  };
}

/** The human part of an OData error body (V2 message.value, V4 message), if there is one. */
export function errorMessage(body: string): string | undefined {
  try {
    const error = (JSON.parse(body) as { error?: { code?: unknown; message?: unknown } }).error;
    if (!error) return undefined;
    const message = typeof error.message === 'string' ? error.message : (error.message as { value?: unknown } | undefined)?.value;
    const text = [typeof error.code === 'string' ? error.code : '', typeof message === 'string' ? message : ''].filter(Boolean).join(': ');
    return text ? text.slice(0, 500) : undefined;
  } catch {
    const text = body
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return text ? text.slice(0, 200) : undefined;
  }
}
