// README.md runs as written. Convention for its fenced blocks:
//   ```sh       runnable examples. This test runs every such block, command by command and in the order of the
//               README, with bash and curl against a live service it starts (its own process, on a free port),
//               and compares each answer with the one documented on the line under the command:
//               `# → <status> <body>` (the body shortened: fields left out are not compared, a string ending
//               in "…" stands for any string that begins like it; see test/support/readme-blocks.ts). A
//               command without its answer fails the test. Placeholders are filled in from earlier answers:
//               `cus-…`, `inv-…` … (the id of that kind last seen), `<api_key>`, `<api_token …>` (the value of
//               that field last seen); `localhost:3000` is the test's service.
//   ```console  commands that are not run here (installing, starting, containers, the operator CLI).
//   ```text     file contents, output; ```http, ```json: a request or an answer shown, not run.
// A block without a language, or marked bash/shell, fails the test: a shell example is ```sh or ```console.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runMigrations } from '../../src/database/migrate.js';
import { makePdf } from '../support/pdf.js';
import { difference, readmeSteps } from '../support/readme-blocks.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { resetDatabase, startTestApp, testDatabaseUrl } from '../support/test-app.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** README_RECORD=1: print every command with its real answer instead of comparing (for writing the README). */
const RECORD = process.env.README_RECORD === '1';
/** curl as documented, with the status code written to stderr so stdout stays what the reader sees. */
const CURL = `curl() { command curl -w '%{stderr}%{http_code}' "$@"; }\n`;

function bash(script: string, cwd: string): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ stdout, stderr, code: error ? Number((error as { code?: number }).code ?? 1) : 0 }),
    );
  });
}

/** The ids (by prefix) and fields (by name) of the answers so far, for the placeholders. */
class Learned {
  readonly ids = new Map<string, string>();
  readonly fields = new Map<string, string>();

  take(answer: unknown): void {
    const seen = new Set<string>();
    const walk = (value: unknown) => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (value === null || typeof value !== 'object') return;
      for (const [key, field] of Object.entries(value)) {
        if (typeof field === 'string') {
          const id = /^([a-z]{2,4})-[0-9a-f]{8}-/.exec(field);
          if (key === 'id' && id && !seen.has(id[1])) {
            seen.add(id[1]);
            this.ids.set(id[1], field);
          }
          if (!seen.has(`field:${key}`)) {
            seen.add(`field:${key}`);
            this.fields.set(key, field);
          }
        } else walk(field);
      }
    };
    walk(answer);
  }

  fill(text: string, origin: string, where: string): string {
    return text
      .replaceAll('localhost:3000', origin.replace('http://', ''))
      .replace(/\b([a-z]{2,4})-…/g, (_all, prefix: string) => {
        const id = this.ids.get(prefix);
        if (!id) throw new Error(`${where}: no ${prefix}- id in the answers before`);
        return id;
      })
      .replace(/<([a-z_]+)[^>]*>/g, (_all, name: string) => {
        const value = this.fields.get(name);
        if (value === undefined) throw new Error(`${where}: no ${name} in the answers before`);
        return value;
      });
  }
}

describe('README.md', () => {
  let service: ServiceProcess;
  let workdir: string;

  beforeAll(async () => {
    await runMigrations(testDatabaseUrl());
    const app = await startTestApp();
    await resetDatabase(app);
    await app.close();
    workdir = mkdtempSync(join(tmpdir(), 'receivables-readme-'));
    writeFileSync(join(workdir, 'rechnung.pdf'), await makePdf('Rechnung 2026-001'));
    service = await startServiceProcess({
      APP_ENV: 'development',
      DATABASE_URL: testDatabaseUrl(),
      DATA_DIR: join(workdir, 'data'),
      LOG_LEVEL: 'warn',
    });
  }, 120_000);
  afterAll(async () => service?.stop());

  const steps = readmeSteps(README);

  it('refers to nothing outside the repository, and every file it names exists', () => {
    expect(README).not.toMatch(/\.\.\//);
    const named = [...README.matchAll(/`((?:src|test|migrations|bench|sql|scripts|\.ci)\/[^`\s]*|[\w.-]+\.(?:json|ya?ml|mjs|md))`/g)].map(
      (m) => m[1],
    );
    const missing = named.filter((path) => !/[<*{…]/.test(path) && !existsSync(join(ROOT, path)));
    expect(named.length).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it('marks every block with its language, so that no shell example goes unrun under another name', () => {
    const opened = [...README.matchAll(/^\s*```(\S*)$/gm)].map((m) => m[1]).filter((_, i) => i % 2 === 0);
    expect(opened.filter((lang) => ['', 'bash', 'shell', 'zsh', 'shell-session'].includes(lang))).toEqual([]);
    expect(opened.filter((lang) => lang === 'sh').length).toBeGreaterThan(0);
  });

  it('has runnable examples, each with its answer', () => {
    expect(steps.filter((s) => s.kind === 'command').length).toBeGreaterThan(30);
    if (!RECORD) expect(steps.filter((s) => s.kind === 'command' && !s.answer).map((s) => `README.md:${s.line}: ${s.text}`)).toEqual([]);
  });

  it('answers every example as documented', async () => {
    const learned = new Learned();
    const exports: string[] = [];
    const failures: string[] = [];
    for (const step of steps) {
      const where = `README.md:${step.line}`;
      let command: string;
      try {
        command = learned.fill(step.text, service.origin, where);
      } catch (error) {
        failures.push((error as Error).message);
        break;
      }
      if (step.kind === 'export') {
        exports.push(command);
        continue;
      }
      const documented = step.answer;
      // "soon": background work (shipping, a pushed document) decides the answer; asked again for up to 30 s.
      const deadline = Date.now() + (documented?.soon ? 30_000 : 0);
      let found: string | null;
      for (;;) {
        const run = await bash(`${CURL}${exports.join('\n')}\n${command}`, workdir);
        const status = Number(/(\d{3})$/.exec(run.stderr.trim())?.[1] ?? 0);
        let body: unknown = run.stdout;
        try {
          body = JSON.parse(run.stdout);
        } catch {
          // not JSON: compared as text
        }
        if (RECORD || !documented) {
          console.log(`${where}: ${step.text}\n# → ${status} ${typeof body === 'string' ? body.trim() : JSON.stringify(body)}`);
          learned.take(body);
          found = null;
          break;
        }
        found =
          status !== documented.status
            ? `status ${status}, documented ${documented.status}: ${run.stdout}`
            : documented.body === undefined
              ? null
              : /^[[{]/.test(documented.body)
                ? difference(JSON.parse(documented.body), body)
                : run.stdout.includes(documented.body)
                  ? null
                  : `expected the output to contain ${JSON.stringify(documented.body)}, got ${JSON.stringify(run.stdout)}`;
        if (!found || Date.now() > deadline) {
          learned.take(body);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      if (found) failures.push(`${where}: ${step.text}\n  ${found}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
