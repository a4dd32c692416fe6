// `npm run openapi` writes openapi.json at the repository root; `npm run openapi:check` (`--check`)
// regenerates it into a temp file and fails when the committed one differs. No database, no server.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AppModule } from '../app.module.js';
import { loadConfig } from '../config/app.config.js';
import { createOpenApiDocument } from './document.js';

/** Never connected to (the module is wired with `openApiOnly`), only named. */
const UNUSED_DATABASE_URL = 'postgres://openapi.invalid/unused';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Keys sorted at every level so that a diff shows only real changes, except the members of
 * `properties`: they keep the serializers' field order, the order a reviewer compares with the spec.
 */
function stableJson(value: Json, keepOrder = false): Json {
  if (Array.isArray(value)) return value.map((item) => stableJson(item));
  if (value === null || typeof value !== 'object') return value;
  const keys = keepOrder ? Object.keys(value) : Object.keys(value).sort();
  return Object.fromEntries(keys.map((key) => [key, stableJson(value[key], key === 'properties' && !keepOrder)]));
}

async function renderOpenApi(): Promise<string> {
  // A fixed environment: the document must not depend on the shell it is generated in.
  const config = loadConfig({ APP_ENV: 'development', LOG_LEVEL: 'silent' });
  const root = AppModule.forRoot(config, UNUSED_DATABASE_URL, { openApiOnly: true });
  const app = await NestFactory.create(root, { logger: false, abortOnError: false });
  try {
    const document = JSON.parse(JSON.stringify(createOpenApiDocument(app))) as Json;
    return `${JSON.stringify(stableJson(document), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

async function main(check: boolean): Promise<void> {
  const committed = resolve('openapi.json');
  const text = await renderOpenApi();
  if (!check) {
    await writeFile(committed, text);
    console.log(`wrote ${committed}`);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'openapi-'));
  const fresh = join(dir, 'openapi.json');
  await writeFile(fresh, text);
  const current = await readFile(committed, 'utf8').catch(() => '');
  if (current !== text) {
    console.error(`openapi.json is out of date: run npm run openapi\n(compare: diff ${committed} ${fresh})`);
    process.exit(1);
  }
  await rm(dir, { recursive: true, force: true });
  console.log('openapi.json is current');
}

main(process.argv.includes('--check')).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
