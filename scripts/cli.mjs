// `npm run cli -- …`: runs the operator CLI from the built files (dist/), building first only when a
// source (src/, migrations/, the tsconfig files, package.json) is newer than the built entry point, so
// repeated calls start at once. `npm run cli:dev` always builds first.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist/src/cli/main.js');

function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

const built = statSync(entry, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const sources = Math.max(
  ...['src', 'migrations', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((p) => newest(join(root, p))),
);
if (process.argv.includes('--rebuild') || sources > built) {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const args = process.argv.slice(2).filter((arg) => arg !== '--rebuild');
const run = spawnSync(process.execPath, [entry, ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
