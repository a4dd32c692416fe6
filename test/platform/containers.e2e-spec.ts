// The container image builds from what its Dockerfile copies: the service build (tsconfig.build.json)
// must not reach into test/ or bench/, which the image does not contain, and what the image runs must
// exist. (There is no Docker engine on the project's machines: this guards the files themselves.)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('container image', () => {
  const dockerfile = read('Dockerfile');
  const [buildStage, runStage] = dockerfile.split(/^FROM /m).slice(1);

  it('builds the service from src/ and migrations/ only', () => {
    const build = JSON.parse(read('tsconfig.build.json'));
    expect(build.include.sort()).toEqual(['migrations', 'src']);
    const copied = [...buildStage.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1].split(/\s+/));
    for (const folder of build.include) expect(copied).toContain(folder);
    for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']) expect(copied).toContain(file);
    for (const path of copied) expect(statSync(join(ROOT, path))).toBeTruthy();
    // An import of test/ or bench/ from a built file would break `npm run build` in the image.
    const reaching = sources('src')
      .concat(sources('migrations'))
      .filter((file) => /from '(\.\.\/)+(test|bench)\//.test(read(file)))
      .map((file) => relative(ROOT, join(ROOT, file)));
    expect(reaching).toEqual([]);
  });

  it('installs the locked versions the way CI does, and runs as an unprivileged user with a writable DATA_DIR', () => {
    expect(buildStage).toMatch(/^RUN npm ci --no-audit --no-fund$/m);
    expect(read('.ci/run')).toMatch(/^npm ci --no-audit --no-fund$/m);
    expect(runStage).toMatch(/ENV .*DATA_DIR=\/data/);
    expect(runStage.indexOf('chown node:node /data')).toBeGreaterThan(-1);
    expect(runStage.indexOf('chown node:node /data')).toBeLessThan(runStage.indexOf('USER node'));
  });

  it('runs Node 24 LTS in both stages, the major of the second CI pass; docker-compose runs this image', () => {
    const images = [buildStage, runStage].map((stage) => stage.split(/\s/)[0]);
    expect(images).toEqual(['node:24-bookworm-slim', 'node:24-bookworm-slim']);
    const ciVersion = /^NODE24_VERSION=(\d+)\.\d+\.\d+$/m.exec(read('.ci/run'));
    expect(ciVersion?.[1]).toBe('24');
    expect(read('.ci/run')).toMatch(/^ {2}PATH="\$NODE24_HOME\/bin:\$PATH" .*npm test$/m);
    const compose = read('docker-compose.yml');
    expect(compose).toMatch(/^ {2}service:\n {4}build: \.$/m);
    expect(compose).not.toMatch(/image: *node:/);
  });

  it('runs entry points that the build produces: the service, the health probe, the CLI, the migrations', () => {
    const compose = read('docker-compose.yml');
    const targets = [...`${dockerfile}\n${compose}`.matchAll(/dist\/(src\/[\w/.-]+)\.js/g)].map((m) => `${m[1]}.ts`);
    expect(new Set(targets)).toEqual(new Set(['src/main.ts', 'src/health/probe.ts', 'src/cli/main.ts', 'src/database/migrate.main.ts']));
    for (const target of targets) expect(statSync(join(ROOT, target)).isFile()).toBe(true);
  });
});
