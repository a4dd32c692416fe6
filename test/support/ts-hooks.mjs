// Module hooks of ts-loader.mjs.
import swc from '@swc/core';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const OPTIONS = {
  sourceMaps: 'inline',
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    keepClassNames: true,
  },
  module: { type: 'es6' },
};

/** The web app's TSX templates (src/web): JSX through @kitajs/html, as jest.config.js compiles them. */
const TSX_OPTIONS = {
  ...OPTIONS,
  jsc: {
    ...OPTIONS.jsc,
    parser: { ...OPTIONS.jsc.parser, tsx: true },
    transform: { ...OPTIONS.jsc.transform, react: { runtime: 'automatic', importSource: '@kitajs/html' } },
  },
};

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:');
    if (!relative || !specifier.endsWith('.js')) throw error;
    const base = specifier.slice(0, -3);
    return next(`${base}.ts`, context).catch(() => next(`${base}.tsx`, context));
  }
}

export async function load(url, context, next) {
  const tsx = url.endsWith('.tsx');
  if (!url.startsWith('file:') || !(tsx || url.endsWith('.ts'))) return next(url, context);
  const filename = fileURLToPath(url);
  const { code } = await swc.transform(await readFile(filename, 'utf8'), { ...(tsx ? TSX_OPTIONS : OPTIONS), filename });
  return { format: 'module', source: code, shortCircuit: true };
}
