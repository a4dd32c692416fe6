// Every declared statement (src/database/sql/statement.ts) is written to sql/<area>.sql, so a reviewer
// sees the SQL a change makes; this suite fails when the committed files differ from the declarations
// (`SQL_FILES=write npm test -- test/database/sql-files` writes them). It also checks, by reading the
// statements: each parses against the migrated schema; each names company_id for every tenant table it
// touches (or says why it works across companies); and only the ledger writes an invoice's status and
// money columns or inserts invoices.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdir, readFile, mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import pg from 'pg';
import { runMigrations } from '../../src/database/migrate.js';
import { type Declaration, declaredStatements } from '../../src/database/sql/statement.js';
import { testDatabaseUrl } from '../support/test-app.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SQL_DIR = join(ROOT, 'sql');
/** The columns that only the ledger (statements named ledger.*) may write. */
const LEDGER_COLUMNS = ['status', 'status_before_paid', 'original_total', 'reminder_fees', 'default_interest', 'flat_fee', 'paid_amount', 'waived_amount', 'open_amount', 'written_off_at'];
const KEYWORDS = new Set(['where', 'on', 'set', 'join', 'left', 'right', 'inner', 'cross', 'full', 'lateral', 'using', 'order', 'group', 'limit', 'offset', 'returning', 'values', 'select', 'for', 'union', 'natural', 'as', 'with', 'default', 'overriding', 'having', 'window']);

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** Imports every module that declares statements, so that the registry holds them all. */
async function loadDeclarations(): Promise<Declaration[]> {
  for (const file of await sourceFiles(join(ROOT, 'src'))) {
    if (file.includes(join('src', 'database', 'sql'))) continue;
    const text = await readFile(file, 'utf8');
    if (/\bstatement(Family)?(<[^>]*>)?\(/.test(text)) await import(file);
  }
  return declaredStatements();
}

function render(declarations: Declaration[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const d of declarations) {
    const area = d.name.split('.')[0];
    const blocks = d.texts().map((text, i, all) => {
      const header = all.length > 1 ? `-- ${d.name} (variant ${i + 1} of ${all.length})` : `-- ${d.name}`;
      const why = d.crossTenant ? `\n-- across companies: ${d.crossTenant}` : '';
      return `${header}${why}\n${dedent(text)};\n`;
    });
    files.set(area, (files.get(area) ?? `-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.\n\n`) + blocks.join('\n') + '\n');
  }
  return files;
}

function dedent(text: string): string {
  const lines = text.replace(/^\n+|\s+$/g, '').split('\n');
  const indents = lines.slice(1).filter((l) => l.trim()).map((l) => l.match(/^ */)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return [lines[0].trim(), ...lines.slice(1).map((l) => l.slice(Math.min(cut, l.match(/^ */)![0].length)).trimEnd())].join('\n');
}

/** The tenant tables a statement names, each with the name it is referred to by. */
function tableReferences(text: string, tenantTables: Set<string>): Array<{ table: string; alias: string; insert: boolean; columns: string | null }> {
  const found = [];
  const pattern = /\b(FROM|JOIN|UPDATE|INTO|USING)\s+(?:ONLY\s+)?"?([a-z_][a-z0-9_]*)"?(?:\s+(?:AS\s+)?([a-z_][a-z0-9_]*))?(\s*\(([^)]*)\))?/gi;
  for (const m of text.matchAll(pattern)) {
    const table = m[2].toLowerCase();
    if (!tenantTables.has(table)) continue;
    const alias = m[3] && !KEYWORDS.has(m[3].toLowerCase()) ? m[3] : table;
    const insert = m[1].toUpperCase() === 'INTO';
    found.push({ table, alias, insert, columns: insert ? (m[5] ?? null) : null });
  }
  return found;
}

function tenantProblems(name: string, text: string, tenantTables: Set<string>): string[] {
  const problems: string[] = [];
  for (const ref of tableReferences(text, tenantTables)) {
    if (ref.insert) {
      if (!ref.columns || !/\bcompany_id\b/.test(ref.columns)) problems.push(`${name}: INSERT INTO ${ref.table} without company_id`);
      continue;
    }
    const qualified = new RegExp(`\\b${ref.alias}\\.company_id\\b`);
    const bare = /(^|[^.\w])company_id\s*(=|IN\b|<>|IS\b)/i;
    if (!qualified.test(text) && !(ref.alias === ref.table && bare.test(text))) problems.push(`${name}: ${ref.table} ${ref.alias} has no company_id condition`);
  }
  return problems;
}

function ledgerProblems(name: string, text: string): string[] {
  if (name.startsWith('ledger.')) return [];
  const problems: string[] = [];
  if (/\bINSERT\s+INTO\s+invoices\b/i.test(text)) problems.push(`${name} inserts invoices: that is the ledger's`);
  for (const m of text.matchAll(/\bUPDATE\s+invoices\b[\s\S]*?\bSET\b([\s\S]*?)(?=\bFROM\b|\bWHERE\b|\bRETURNING\b|$)/gi)) {
    const written = LEDGER_COLUMNS.filter((c) => new RegExp(`(^|[\\s,])${c}\\s*=`).test(m[1]));
    if (written.length) problems.push(`${name} writes ${written.join(', ')} of invoices: that is the ledger's`);
  }
  return problems;
}

describe('the SQL files', () => {
  let declarations: Declaration[];
  let client: pg.Client;
  let tenantTables: Set<string>;

  beforeAll(async () => {
    await runMigrations(testDatabaseUrl());
    declarations = await loadDeclarations();
    client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'company_id' AND table_name <> 'companies'`,
    );
    tenantTables = new Set(rows.map((r) => r.table_name));
  });

  afterAll(async () => {
    await client?.end();
  });

  it('are what the declared statements say (SQL_FILES=write writes them)', async () => {
    expect(declarations.length).toBeGreaterThan(0);
    const files = render(declarations);
    if (process.env.SQL_FILES === 'write') {
      await mkdir(SQL_DIR, { recursive: true });
      for (const existing of await readdir(SQL_DIR).catch(() => [])) if (!files.has(existing.replace(/\.sql$/, ''))) await writeFile(join(SQL_DIR, existing), '');
      for (const [area, text] of files) await writeFile(join(SQL_DIR, `${area}.sql`), text);
    }
    const stale: string[] = [];
    for (const [area, text] of files) {
      const committed = await readFile(join(SQL_DIR, `${area}.sql`), 'utf8').catch(() => null);
      if (committed !== text) stale.push(relative(ROOT, join(SQL_DIR, `${area}.sql`)));
    }
    expect({ stale, fix: 'SQL_FILES=write npm test -- test/database/sql-files' }).toEqual({ stale: [], fix: expect.any(String) });
  });

  it('hold statements that PostgreSQL parses against the schema', async () => {
    const failures: string[] = [];
    for (const d of declarations) {
      for (const text of d.texts()) {
        try {
          await client.query(`PREPARE sql_file_check AS ${text}`);
          await client.query('DEALLOCATE sql_file_check');
        } catch (error) {
          // 42P18/42P08: a parameter whose type only the call decides; the statement itself is sound.
          const code = (error as { code?: string }).code;
          if (code !== '42P18' && code !== '42P08') failures.push(`${d.name}: ${(error as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('name company_id for every tenant table a statement touches, unless it says why not', () => {
    const problems = declarations.filter((d) => !d.crossTenant).flatMap((d) => d.texts().flatMap((t) => tenantProblems(d.name, t, tenantTables)));
    expect(problems).toEqual([]);
  });

  it('show that only the ledger writes an invoice status, its money or a new invoice', () => {
    expect(declarations.flatMap((d) => d.texts().flatMap((t) => ledgerProblems(d.name, t)))).toEqual([]);
  });

  it('catch a statement without a tenant condition and a write of ledger columns outside the ledger', () => {
    const tables = new Set(['invoices', 'customers']);
    expect(tenantProblems('x.read', 'SELECT * FROM customers c WHERE c.id = $1', tables)).toHaveLength(1);
    expect(tenantProblems('x.read', 'SELECT * FROM customers c WHERE c.company_id = $1 AND c.id = $2', tables)).toEqual([]);
    expect(tenantProblems('x.insert', 'INSERT INTO customers (id, name) VALUES ($1, $2)', tables)).toHaveLength(1);
    expect(ledgerProblems('dunning.x', 'UPDATE invoices i SET paid_amount = 0 WHERE i.company_id = $1')).toHaveLength(1);
    expect(ledgerProblems('dunning.x', 'UPDATE invoices i SET updated_at = now() WHERE i.company_id = $1')).toEqual([]);
    expect(ledgerProblems('ledger.x', 'UPDATE invoices i SET paid_amount = 0 WHERE i.company_id = $1')).toEqual([]);
  });
});

describe('the one way to PostgreSQL', () => {
  // The door (src/database/sql) and the start-up code that runs before any app exists (migrations, the
  // embedded server) are the only places that send SQL text themselves.
  const DOOR = [join('src', 'database', 'sql'), join('src', 'database', 'migrate.ts'), join('src', 'database', 'embedded-postgres.ts')];
  const BYPASSES = [
    /\bcreateQueryBuilder\(/,
    /\b(manager|db|dataSource|queryRunner|client|pool)\.query\(/,
    /\.driver\b.*\bmaster\b/,
  ];

  it('is the SQL door or a TypeORM single-row call: no query builder, no raw query, no private driver access', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(join(ROOT, 'src'))) {
      if (DOOR.some((allowed) => file.includes(allowed))) continue;
      const text = await readFile(file, 'utf8');
      for (const pattern of BYPASSES) if (pattern.test(text)) offenders.push(`${relative(ROOT, file)}: ${pattern}`);
    }
    expect(offenders).toEqual([]);
  });
});

describe('TypeORM writes of invoices', () => {
  it('happen only in the invoice feature', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(join(ROOT, 'src'))) {
      if (file.includes(join('src', 'invoices'))) continue;
      if (/\.(insert|update|save|upsert)\(\s*Invoice\b/.test(await readFile(file, 'utf8'))) offenders.push(relative(ROOT, file));
    }
    expect(offenders).toEqual([]);
  });
});
