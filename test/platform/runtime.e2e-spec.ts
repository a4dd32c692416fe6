// CI runs the suite twice (.ci/run): on this machine's Node 20 and on Node 24, the production image's. A pass
// proves a runtime only if everything in it ran there: jest, and the processes tests start (the CLI, the
// service, helpers) by process.execPath or as `node` from PATH. .ci/run says which version in
// EXPECTED_NODE_VERSION; without it (a developer's run) only the supported range is checked.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);
const expected = process.env.EXPECTED_NODE_VERSION;

const versionOf = (command: string) => execFileSync(command, ['--version'], { encoding: 'utf8' }).trim();
const numbers = (version: string) => version.replace(/^v/, '').split('.').map(Number);

describe('the runtime', () => {
  it("is one package.json's engines admit", () => {
    const engines = (JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toMatch(/^>=\d+\.\d+\.\d+$/);
    const [major, minor, patch] = numbers(process.version);
    const [floorMajor, floorMinor, floorPatch] = numbers(engines.slice(2));
    expect(major * 1e6 + minor * 1e3 + patch).toBeGreaterThanOrEqual(floorMajor * 1e6 + floorMinor * 1e3 + floorPatch);
  });

  (expected ? it : it.skip)('is the version CI asked for, here and in the processes tests start', () => {
    expect(process.version).toBe(expected);
    expect(versionOf(process.execPath)).toBe(expected);
    expect(versionOf('node')).toBe(expected);
  });
});
