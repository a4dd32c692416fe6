// `node --import ./test/support/ts-loader.mjs <file>.ts`: runs the TypeScript sources in a child
// process the way jest does (swc, decorator metadata, `.js` specifiers resolved to `.ts`), for tests
// that need a real process to kill.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
