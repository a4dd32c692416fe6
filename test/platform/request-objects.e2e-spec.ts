// The service's requests and responses share their V8 maps and stay in fast mode, request after
// request (AppExpressAdapter): otherwise every property access in Express, Nest and passport turns
// megamorphic, and a GET costs about half as much CPU again.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runMigrations } from '../../src/database/migrate.js';
import { testDatabaseUrl } from '../support/test-app.js';

const CHILD = fileURLToPath(new URL('../support/request-maps.child.ts', import.meta.url));
const REGISTER = fileURLToPath(new URL('../support/ts-register.mjs', import.meta.url));

interface Pair {
  url: string;
  sameRequestMap: boolean;
  sameResponseMap: boolean;
  fastRequest: boolean;
  fastResponse: boolean;
}

describe('request and response objects', () => {
  beforeAll(async () => runMigrations(testDatabaseUrl()));

  it('share their V8 maps and stay in fast mode for a found customer, a list and a 404', async () => {
    const pairs = await new Promise<Pair[]>((resolve, reject) => {
      const args = [
        '--allow-natives-syntax',
        '--import',
        REGISTER,
        '--no-warnings',
        CHILD,
        JSON.stringify({ databaseUrl: testDatabaseUrl() }),
      ];
      execFile(process.execPath, args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(/^PAIRS (.*)$/m.exec(stdout)?.[1] ?? 'null') as Pair[]);
      });
    });
    expect(pairs).toHaveLength(9);
    for (const pair of pairs)
      expect(pair).toEqual({ url: pair.url, sameRequestMap: true, sameResponseMap: true, fastRequest: true, fastResponse: true });
  });
});
