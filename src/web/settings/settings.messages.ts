// The settings pages' strings, German and English. Registered in catalogue.ts (an AreaMessages there).
import { de } from './settings.messages.de.js';
import { en } from './settings.messages.en.js';

export const settingsMessages = { de, en };
