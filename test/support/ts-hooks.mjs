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

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:');
    if (relative && specifier.endsWith('.js')) return next(`${specifier.slice(0, -3)}.ts`, context);
    throw error;
  }
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const filename = fileURLToPath(url);
  const { code } = await swc.transform(await readFile(filename, 'utf8'), { ...OPTIONS, filename });
  return { format: 'module', source: code, shortCircuit: true };
}
