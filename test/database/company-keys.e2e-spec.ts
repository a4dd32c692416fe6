// Every table is keyed by company first (issue 22), so a sharded PostgreSQL that distributes by company
// (Citus: create_distributed_table(table, 'company_id')) takes the schema as it is: a primary key and a
// unique index must contain the distribution column, and a foreign key between two distributed tables
// must join on it. Read from the catalog after the migrations; the exceptions below say why.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { runMigrations } from '../../src/database/migrate.js';
import { testDatabaseUrl } from '../support/test-app.js';

/** Tables whose primary key does not start with company_id. */
const KEYED_OTHERWISE: Record<string, string> = {
  'public.companies': 'the tenant itself (keyed by its id = every other table’s company_id; a reference table when sharded)',
  'public.base_interest_rates':
    'global reference data: the Bundesbank base rate is the same for every company (a reference table when sharded)',
  'public.schema_migrations': 'TypeORM’s ledger of applied migrations, kept on the coordinator',
  'public.rate_limit_counters':
    'counts failed authentications and requests per client address and credential, often before any company is known (a wrong token has none); unlogged, kept on the coordinator when sharded',
  'public.web_sessions':
    'a visitor’s session (language, CSRF binding) exists before anyone signs in, so it has no company; looked up by sid only',
};

/** Unique indexes of tenant tables without company_id: credentials found before the company is known. */
const UNIQUE_ACROSS_COMPANIES: Record<string, string> = {
  'public.api_tokens.api_tokens_hash_key': 'a token is looked up by its hash to learn its company',
  'public.api_keys.api_keys_hash_key': 'an API key is looked up by its hash to learn its company',
  'public.oauth_applications.oauth_applications_client_id_key': 'an OAuth client id is looked up to learn its company',
  'public.oauth_authorization_codes.oauth_authorization_codes_hash_key': 'an authorization code is redeemed by its hash',
  'public.oauth_tokens.oauth_tokens_access_hash_key': 'a bearer token is looked up by its hash',
  'public.oauth_tokens.oauth_tokens_refresh_hash_key': 'a refresh token is redeemed by its hash',
  'public.invitations.invitations_token_hash_key': 'an invitation link is opened before sign-in',
  'public.password_resets.password_resets_token_hash_key': 'a reset link is opened before sign-in',
  'public.users.users_email_key': 'sign-in by e-mail address: one address, one user across companies',
};

/** Schemas that are not ours: pg-boss creates and migrates its own (job queue, on the coordinator when sharded). */
const FOREIGN_SCHEMAS = ['pgboss'];

interface Catalog {
  primaryKeys: Array<{ table: string; columns: string[] }>;
  foreignKeys: Array<{ name: string; table: string; columns: string[]; references: string; referencedColumns: string[] }>;
  uniqueIndexes: Array<{ name: string; table: string; columns: string[] }>;
}

/** The keys of every table of ours (partitions are checked through their parent). */
async function readCatalog(client: pg.ClientBase): Promise<Catalog> {
  const ours = `c.relkind IN ('r', 'p') AND NOT c.relispartition
    AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND NOT n.nspname = ANY($1::text[])`;
  const columns = (rel: string, keys: string) =>
    `ARRAY(SELECT a.attname::text FROM unnest(${keys}) WITH ORDINALITY k(attnum, i)
            JOIN pg_attribute a ON a.attrelid = ${rel} AND a.attnum = k.attnum ORDER BY k.i)`;
  const tables = await client.query<{ table: string; pk: string[] | null }>(
    `SELECT n.nspname || '.' || c.relname AS table, ${columns('c.oid', 'con.conkey')} AS pk
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_constraint con ON con.conrelid = c.oid AND con.contype = 'p'
      WHERE ${ours}`,
    [FOREIGN_SCHEMAS],
  );
  const foreignKeys = await client.query<Catalog['foreignKeys'][number]>(
    `SELECT con.conname AS name, n.nspname || '.' || c.relname AS table, ${columns('con.conrelid', 'con.conkey')} AS columns,
            rn.nspname || '.' || r.relname AS references, ${columns('con.confrelid', 'con.confkey')} AS "referencedColumns"
       FROM pg_constraint con
       JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_class r ON r.oid = con.confrelid JOIN pg_namespace rn ON rn.oid = r.relnamespace
      WHERE con.contype = 'f' AND ${ours}`,
    [FOREIGN_SCHEMAS],
  );
  // Expression columns (lower(email)) count as no column; company_id is always a plain column.
  const uniqueIndexes = await client.query<Catalog['uniqueIndexes'][number]>(
    `SELECT ic.relname AS name, n.nspname || '.' || c.relname AS table, ${columns('c.oid', 'i.indkey::int2[]')} AS columns
       FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE i.indisunique AND NOT i.indisprimary AND ${ours}`,
    [FOREIGN_SCHEMAS],
  );
  return {
    primaryKeys: tables.rows.map((row) => ({ table: row.table, columns: row.pk ?? [] })),
    foreignKeys: foreignKeys.rows,
    uniqueIndexes: uniqueIndexes.rows,
  };
}

/** What a distribution by company_id would refuse, each as one line; allowlisted exceptions are left out. */
function problems(catalog: Catalog): string[] {
  const found: string[] = [];
  const distributed = new Set(catalog.primaryKeys.filter((t) => !(t.table in KEYED_OTHERWISE)).map((t) => t.table));
  for (const { table, columns } of catalog.primaryKeys) {
    if (table in KEYED_OTHERWISE) continue;
    if (columns[0] !== 'company_id') found.push(`${table}: primary key (${columns.join(', ') || 'none'}) does not start with company_id`);
  }
  for (const fk of catalog.foreignKeys) {
    const at = fk.columns.indexOf('company_id');
    if (at < 0) {
      found.push(`${fk.table}: foreign key ${fk.name} (${fk.columns.join(', ')}) lacks company_id`);
    } else if (distributed.has(fk.references) && fk.referencedColumns[at] !== 'company_id') {
      // Between two tables sharded by company, the key must pair company_id with company_id (co-location).
      found.push(`${fk.table}: foreign key ${fk.name} pairs company_id with ${fk.references}.${fk.referencedColumns[at]}`);
    }
  }
  for (const index of catalog.uniqueIndexes) {
    if (!distributed.has(index.table) || `${index.table}.${index.name}` in UNIQUE_ACROSS_COMPANIES) continue;
    if (!index.columns.includes('company_id')) found.push(`${index.table}: unique index ${index.name} lacks company_id`);
  }
  return found;
}

describe('company-first keys', () => {
  let client: pg.Client;
  let catalog: Catalog;

  beforeAll(async () => {
    await runMigrations(testDatabaseUrl());
    client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    catalog = await readCatalog(client);
  });

  afterAll(async () => {
    await client?.end();
  });

  it('every primary key starts with company_id, every foreign key and unique index holds it, but for the listed exceptions', () => {
    expect(catalog.primaryKeys.length).toBeGreaterThan(25);
    expect(problems(catalog)).toEqual([]);
  });

  it('lists only exceptions that exist and are exceptions (a fixed table leaves the list)', () => {
    const keys = new Map(catalog.primaryKeys.map((t) => [t.table, t.columns]));
    const stale = Object.keys(KEYED_OTHERWISE).filter((table) => !keys.has(table) || keys.get(table)![0] === 'company_id');
    const indexes = new Map(catalog.uniqueIndexes.map((i) => [`${i.table}.${i.name}`, i.columns]));
    stale.push(...Object.keys(UNIQUE_ACROSS_COMPANIES).filter((name) => !indexes.has(name) || indexes.get(name)!.includes('company_id')));
    expect(stale).toEqual([]);
  });

  it('fails for a table keyed by id only, a foreign key without company_id and a unique index across companies', async () => {
    await client.query('BEGIN');
    try {
      await client.query(
        `CREATE TABLE probe_notes (id uuid PRIMARY KEY, company_id uuid NOT NULL REFERENCES companies (id), code text UNIQUE)`,
      );
      await client.query(`CREATE TABLE probe_note_links (company_id uuid NOT NULL, id uuid NOT NULL, note_id uuid REFERENCES probe_notes (id),
                            PRIMARY KEY (company_id, id))`);
      expect(problems(await readCatalog(client)).sort()).toEqual([
        'public.probe_note_links: foreign key probe_note_links_note_id_fkey (note_id) lacks company_id',
        'public.probe_notes: primary key (id) does not start with company_id',
        'public.probe_notes: unique index probe_notes_code_key lacks company_id',
      ]);
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
