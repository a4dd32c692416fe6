// The statement that empties the test database between tests: every table a test fills (companies, the
// shared rate-limit counters and every table with a company_id column, read from the migrated schema, so
// that a new migration's table is emptied without anyone listing it here) and the job queue.
// schema_migrations and the reference data the migrations fill (base_interest_rates: no company_id) stay.
//
// DELETE in foreign-key order rather than TRUNCATE: TRUNCATE gives each table and index a new file, which
// took 0.5-1.5 s per test against a PostgreSQL that syncs its files (CI's second pass), DELETE of a test's
// few rows a few milliseconds. The tables are locked first, as TRUNCATE locks them (EXCLUSIVE: reads go on,
// the app's background work cannot write into a half-emptied database), in one implicit transaction.
// Tables whose own triggers refuse a DELETE (the append-only push_audit_log) are truncated. When the
// foreign keys allow no order (a cycle, or a table outside the list referencing one in it), the whole list
// is truncated as before.

type Query = (text: string) => Promise<Array<Record<string, unknown>>>;
interface ForeignKey {
  child: string;
  child_here: boolean;
  parent: string;
}

const TENANT_TABLES = `
  SELECT format('%I', c.relname) AS name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> 'schema_migrations'
    AND (c.relname IN ('companies', 'rate_limit_counters') OR EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped))
  ORDER BY 1`;

/** Every foreign key into a table of the current schema: the referencing and the referenced table. */
const FOREIGN_KEYS = `
  SELECT format('%I', c.relname) AS child, cn.nspname = current_schema() AS child_here, format('%I', p.relname) AS parent
  FROM pg_constraint k
  JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace cn ON cn.oid = c.relnamespace
  JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace pn ON pn.oid = p.relnamespace
  WHERE k.contype = 'f' AND pn.nspname = current_schema() AND k.conrelid <> k.confrelid`;

/** Tables with triggers of their own (not those of foreign keys) that a DELETE would fire. */
const TRIGGERED = `
  SELECT DISTINCT format('%I', c.relname) AS name
  FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = current_schema() AND NOT t.tgisinternal AND (t.tgtype & 8) <> 0`;

/** The statement, built once per suite (jest's module registry) after its first migration run. */
export async function emptyTablesStatement(query: Query, withJobs: boolean): Promise<string> {
  const [tables, keys, triggered] = await Promise.all([query(TENANT_TABLES), query(FOREIGN_KEYS), query(TRIGGERED)]);
  const names = tables.map((row) => String(row.name));
  const jobs = withJobs ? ['pgboss.job'] : [];
  const truncateAll = `TRUNCATE ${[...names, ...jobs].join(', ')} CASCADE`;
  const listed = new Set(names);
  const edges = (keys as unknown as ForeignKey[]).filter((key) => listed.has(key.parent));
  if (edges.some((key) => !key.child_here || !listed.has(key.child))) return truncateAll;
  const order = childrenFirst(names, edges);
  if (!order) return truncateAll;
  const truncated = new Set(triggered.map((row) => String(row.name)).filter((name) => listed.has(name)));
  return [
    `LOCK TABLE ${[...names, ...jobs].join(', ')} IN EXCLUSIVE MODE`,
    ...(truncated.size > 0 ? [`TRUNCATE ${[...truncated].join(', ')} CASCADE`] : []),
    ...[...order.filter((name) => !truncated.has(name)), ...jobs].map((name) => `DELETE FROM ${name}`),
  ].join(';\n');
}

/** The tables with every referencing table before the table it references, or undefined for a cycle. */
function childrenFirst(names: string[], edges: Array<{ child: string; parent: string }>): string[] | undefined {
  const order: string[] = [];
  const left = new Set(names);
  while (left.size > 0) {
    const free = [...left].filter((name) => !edges.some((edge) => edge.parent === name && left.has(edge.child)));
    if (free.length === 0) return undefined;
    for (const name of free) {
      order.push(name);
      left.delete(name);
    }
  }
  return order;
}
