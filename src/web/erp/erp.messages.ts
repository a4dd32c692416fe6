// The ERP connection pages' strings, German and English. Registered in catalogue.ts (an AreaMessages there;
// not imported here, which would make a cycle of the two files).
import { de } from './erp.messages.de.js';
import { en } from './erp.messages.en.js';

export const erpMessages = { de, en };
