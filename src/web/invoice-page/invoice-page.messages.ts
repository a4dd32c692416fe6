// The invoice page's own catalogue area (`invoicePage`), registered in catalogue.ts.
import { de, type InvoicePageMessages } from './invoice-page.messages.de.js';
import { en } from './invoice-page.messages.en.js';

// Shaped as catalogue.ts's AreaMessages (not imported: catalogue.ts imports this file).
export const invoicePageMessages: { de: InvoicePageMessages; en: InvoicePageMessages } = { de, en };
