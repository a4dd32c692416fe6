// Every migration, in order. Listed explicitly so the same list works compiled and under the test runner.
import { Foundation1763769600000 } from './1763769600000-foundation.js';

export const migrations = [Foundation1763769600000];
