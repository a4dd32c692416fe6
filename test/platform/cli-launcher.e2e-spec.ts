// `npm run cli` as an operator types it: the usage on --help, -h and no command (exit 0), and the
// launcher (scripts/cli.mjs) runs the built files, building only when a source is newer than them.
import { execFile } from 'node:child_process';
import { statSync, utimesSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = `${ROOT}dist/src/cli/main.js`;
const SOURCE = `${ROOT}src/cli/main.ts`;

function npmCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'cli', '--', ...args], { cwd: ROOT, timeout: 180_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const builtAt = () => statSync(ENTRY).mtimeMs;

describe('npm run cli', () => {
  it.each(['--help', '-h', '', 'help', 'company:create --help'])(
    'prints the usage for "%s" and exits 0',
    async (line) => {
      const run = await npmCli(...line.split(' ').filter(Boolean));
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(/^Usage/);
      expect(run.stdout).toContain('npm run cli -- company:create --name');
      expect(run.stdout).toContain('npm run cli -- token:create --company');
    },
    180_000,
  );

  it('an unknown command still fails with the usage on stderr and exit 1', async () => {
    const run = await npmCli('company:delete');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('unknown command "company:delete"');
    expect(run.stderr).toContain('Usage');
  }, 180_000);

  it('starts from the built files without rebuilding, and rebuilds once a source changed', async () => {
    expect((await npmCli('--help')).code).toBe(0); // builds if this checkout was not built yet
    const built = builtAt();
    expect((await npmCli('--help')).code).toBe(0);
    expect(builtAt()).toBe(built);

    const now = new Date();
    utimesSync(SOURCE, now, new Date(Math.max(Date.now(), built + 2000)));
    expect((await npmCli('-h')).code).toBe(0);
    expect(builtAt()).toBeGreaterThan(built);
  }, 300_000);
});
