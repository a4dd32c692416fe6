// The dunning pages' strings, German and English. Registered in catalogue.ts (an AreaMessages there;
// not imported here, which would make a cycle of the two files).
import { de } from './dunning.messages.de.js';
import { en } from './dunning.messages.en.js';

export const dunningMessages = { de, en };
