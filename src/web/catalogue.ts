// The whole message catalogue of the web app: the common messages (messages.de.ts / messages.en.ts)
// and each area's own catalogue, merged under the area's top-level key. An area adds one line here.
import { de } from './messages.de.js';
import { en } from './messages.en.js';
import { needsYouMessages } from './dashboard/dashboard.messages.js';
import { errorPageMessages } from './errors/errors.messages.js';
import { dunningMessages } from './dunning/dunning.messages.js';
import { exceptionsMessages } from './exceptions/exceptions.messages.js';
import { pushMessages } from './push/push.messages.js';
import { accountMessages } from './account/account.messages.js';
import { customersMessages } from './customers/customers.messages.js';
import { invoicePageMessages } from './invoice-page/invoice-page.messages.js';
import { invoiceListMessages } from './invoices/invoice-list.messages.js';
import { keysMessages } from './integrations-keys/keys.messages.js';
import { settingsMessages } from './settings/settings.messages.js';
import { erpMessages } from './erp/erp.messages.js';

/** An area's messages: the same keys in German and English. */
export interface AreaMessages<T extends object = object> {
  de: T;
  en: T;
}

const AREAS: Record<string, AreaMessages> = {
  // e.g. invoiceList: invoiceListMessages,
  needsYou: needsYouMessages,
  errorPage: errorPageMessages,
  dunning: dunningMessages,
  exceptions: exceptionsMessages,
  push: pushMessages,
  account: accountMessages,
  customers: customersMessages,
  invoicePage: invoicePageMessages,
  invoiceList: invoiceListMessages,
  keys: keysMessages,
  settings: settingsMessages,
  erp: erpMessages,
};

function merge(locale: 'de' | 'en', common: object): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...common };
  for (const [key, area] of Object.entries(AREAS)) {
    if (key in merged) throw new Error(`web catalogue: area "${key}" clashes with a common key`);
    merged[key] = area[locale];
  }
  return merged;
}

export const CATALOGUE = { de: merge('de', de), en: merge('en', en) };
