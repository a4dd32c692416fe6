// The operator CLI run for real: a child process (the TypeScript sources through ts-register.mjs, the
// same module the image runs as dist/src/cli/main.js) against the test database, its credentials then
// used on the HTTP API. Argument checks are the API's rules, named by flag.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { baseRateInput, registrationInput, tokenInput, UsageError } from '../../src/cli/input.js';
import { TEST_DATA_DIR, testDatabaseUrl } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const REGISTER = fileURLToPath(new URL('../support/ts-register.mjs', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(...args: string[]): Promise<Run> {
  const env = { ...process.env, APP_ENV: 'test', DATABASE_URL: testDatabaseUrl(), DATA_DIR: TEST_DATA_DIR, LOG_LEVEL: 'silent' };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', REGISTER, '--no-warnings', CLI, ...args],
      { env, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('operator CLI', () => {
  const companies = async () => Number((await t.db.query('SELECT count(*) FROM companies'))[0].count);

  const t = useTestApp();

  it('company:create prints the credentials once (with a generated password); token:create adds a token that works', async () => {
    const created = await cli('company:create', '--name', 'Betreiber GmbH', '--email', 'ops@betreiber.de');
    expect(created).toMatchObject({ code: 0, stderr: expect.stringContaining('shown only once') });
    const output = JSON.parse(created.stdout);
    expect(Object.keys(output).sort()).toEqual(['api_key', 'api_key_expires_at', 'api_token', 'company', 'password', 'user']);
    expect(output).toMatchObject({
      company: { id: expect.stringMatching(/^cmp-/), name: 'Betreiber GmbH' },
      user: { email: 'ops@betreiber.de' },
    });
    expect(output.password).toMatch(/^[A-Za-z0-9_-]{16}aA1!$/);
    const server = t.app.getHttpServer();
    const me = await request(server).get('/').set('Authorization', `Token token=${output.api_token}`).expect(200);
    expect(me.body).toEqual({ company: output.company });

    const issued = await cli('token:create', '--company', output.company.id, '--name', 'buchhaltung');
    expect(issued.code).toBe(0);
    const token = JSON.parse(issued.stdout);
    expect(token).toEqual({ company: output.company.id, api_token: expect.stringMatching(/^rt_/) });
    expect(token.api_token).not.toBe(output.api_token);
    await request(server).get('/').set('Authorization', `Token token=${token.api_token}`).expect(200, { company: output.company });
    const names = await t.db.query('SELECT name FROM api_tokens ORDER BY created_at');
    expect(names.map((n: { name: string }) => n.name)).toEqual(['default', 'buchhaltung']);
  }, 240_000);

  it('refuses bad input with the flag named, exit code 1 and nothing stored', async () => {
    const bad = await cli('company:create', '--name', 'X GmbH', '--email', 'not-an-address');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--email must be an e-mail address');
    expect(bad.stderr).toContain('Usage');
    expect(bad.stdout).toBe('');
    const unknown = await cli('token:create', '--company', 'cmp-00000000-0000-4000-8000-000000000000');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Company cmp-00000000-0000-4000-8000-000000000000 was not found');
    expect(await companies()).toBe(0);
  }, 240_000);

  it('refuses an e-mail address that is registered already', async () => {
    expect((await cli('company:create', '--name', 'Eins GmbH', '--email', 'same@example.com')).code).toBe(0);
    const again = await cli('company:create', '--name', 'Zwei GmbH', '--email', 'SAME@example.com');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('A user with this e-mail address exists already');
    expect(await companies()).toBe(1);
  }, 240_000);

  it('base-rate:set adds the base rate of a half-year (and corrects it when run again)', async () => {
    const added = await cli('base-rate:set', '--from', '2026-07-01', '--rate', '1,02');
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout).base_rates[0]).toEqual({ valid_from: '2026-07-01', rate: '1.02' });
    expect((await cli('base-rate:set', '--from', '2026-07-01', '--rate', '1.27')).code).toBe(0);
    const rows = await t.db.query(`SELECT rate::text FROM base_interest_rates WHERE valid_from = '2026-07-01'`);
    expect(rows).toEqual([{ rate: '1.27' }]);
    await t.db.query(`DELETE FROM base_interest_rates WHERE valid_from = '2026-07-01'`);
  }, 240_000);

  describe('argument checks (the module the CLI runs)', () => {
    const refused = async (promise: Promise<unknown> | (() => unknown)) => {
      try {
        await (typeof promise === 'function' ? promise() : promise);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };

    it('company:create', async () => {
      expect(await refused(registrationInput({ email: 'a@b.de' }))).toContain('--name is required');
      expect(await refused(registrationInput({ name: '   ', email: 'a@b.de' }))).toContain('--name is required');
      expect(await refused(registrationInput({ name: 'A\u0000B', email: 'a@b.de' }))).toContain('--name must not contain NUL characters');
      expect(await refused(registrationInput({ name: 'x'.repeat(256), email: 'a@b.de' }))).toContain(
        '--name must be shorter than or equal to 255 characters',
      );
      expect(await refused(registrationInput({ name: 'A GmbH' }))).toContain('--email is required');
      expect(await refused(registrationInput({ name: 'A GmbH', email: 'a@b.de\u0000' }))).toContain(
        '--email must not contain NUL characters',
      );
      expect(await refused(registrationInput({ name: 'A GmbH', email: 'a@b.de', password: 'short' }))).toBe(
        '--password needs at least 12 characters, an upper-case letter, a digit, a special character',
      );
      expect(await registrationInput({ name: ' A GmbH ', email: 'a@b.de', password: 'Sicher!Passwort1' })).toEqual({
        name: 'A GmbH',
        email: 'a@b.de',
        password: 'Sicher!Passwort1',
        generated: false,
      });
    });

    it('token:create', async () => {
      expect(await refused(() => tokenInput({}))).toContain('--company is required');
      expect(await refused(() => tokenInput({ company: 'Muster GmbH' }))).toContain('--company must be a company id like cmp-<uuid>');
      const company = 'cmp-00000000-0000-4000-8000-000000000000';
      expect(await refused(() => tokenInput({ company, name: 'x'.repeat(101) }))).toContain('--name must be at most 100 characters');
      expect(await refused(() => tokenInput({ company, name: 'a\u0000' }))).toContain('--name must be at most 100 characters, without NUL');
      expect(tokenInput({ company })).toEqual({ company, name: 'cli' });
    });

    it('base-rate:set', async () => {
      expect(await refused(() => baseRateInput({ rate: '1.27' }))).toContain('--from must be a 1 January or 1 July');
      expect(await refused(() => baseRateInput({ from: '2026-03-01', rate: '1.27' }))).toContain('--from must be a 1 January or 1 July');
      expect(await refused(() => baseRateInput({ from: '2026-07-01', rate: 'abc' }))).toContain('--rate must be the base rate in percent');
      expect(await refused(() => baseRateInput({ from: '2026-07-01', rate: '1.275' }))).toContain('--rate must be');
      expect(baseRateInput({ from: '2027-01-01', rate: '-0,88' })).toEqual({ validFrom: '2027-01-01', rate: '-0.88' });
    });
  });
});
