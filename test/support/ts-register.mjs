// `node --import ./test/support/ts-register.mjs file.ts`: run TypeScript sources without a build.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
