// The README's Configuration table is the operator's reference: every environment variable that
// src/config reads has a row with its default and meaning, and no row names a variable nobody reads.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG = join(ROOT, 'src/config');

/** Names read as env.NAME, env['NAME'] or through a helper taking (env, 'NAME', …). */
function variablesRead(): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(CONFIG).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
    const text = readFileSync(join(CONFIG, file), 'utf8');
    for (const pattern of [/\benv\.([A-Z][A-Z0-9_]+)\b/g, /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g, /\(env, '([A-Z][A-Z0-9_]+)'/g]) {
      for (const match of text.matchAll(pattern)) names.add(match[1]);
    }
  }
  return names;
}

interface Row {
  names: string[];
  defaults: string;
  meaning: string;
}

function configurationTable(): Row[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Configuration\n'));
  if (!section) throw new Error('README.md has no "## Configuration" section');
  return section
    .split('\n')
    .filter((line) => /^\| `[A-Z]/.test(line))
    .map((line) => {
      const [names, defaults, meaning] = line
        .split(/(?<!\\)\|/)
        .slice(1, 4)
        .map((cell) => cell.trim());
      return { names: [...names.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]), defaults, meaning };
    });
}

describe('README configuration table', () => {
  const read = variablesRead();
  const rows = configurationTable();
  const documented = new Set(rows.flatMap((row) => row.names));

  it('finds the variables src/config reads (the scan works)', () => {
    for (const name of ['APP_ENV', 'PORT', 'DATABASE_URL', 'TRUSTED_PROXIES', 'RATE_LIMIT_PER_MINUTE', 'SMTP_URL'])
      expect(read).toContain(name);
    expect(read.size).toBeGreaterThan(40);
  });

  it('has a row for every variable src/config reads', () => {
    expect([...read].filter((name) => !documented.has(name)).sort()).toEqual([]);
  });

  it('names no variable that nothing reads', () => {
    expect([...documented].filter((name) => !read.has(name)).sort()).toEqual([]);
  });

  it('gives every row a default (— for none) and a meaning', () => {
    for (const row of rows) {
      expect({ row: row.names.join(', '), defaults: row.defaults.length > 0, meaning: row.meaning.length > 10 }).toEqual({
        row: row.names.join(', '),
        defaults: true,
        meaning: true,
      });
    }
  });

  it('is the only place that reads the environment: no process.env outside src/config', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (
          path.endsWith('.ts') &&
          !path.endsWith('.spec.ts') &&
          !path.startsWith(CONFIG) &&
          /process\.env\b/.test(readFileSync(path, 'utf8'))
        ) {
          offenders.push(path.slice(ROOT.length));
        }
      }
    };
    walk(join(ROOT, 'src'));
    expect(offenders).toEqual([]);
  });
});
