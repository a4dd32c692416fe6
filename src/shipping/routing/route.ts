// How a document can go out, decided before anything is enqueued: the resolved mode, its channels,
// the e-mail recipients, and what stands in the way (nothing is shipped) or deserves a flag anyway.
import type { Contact } from '../../contacts/contact.entity.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import type { Reminder } from '../../invoices/reminder.entity.js';
import { type EmailRecipients, emailRecipients } from './recipients.js';
import { type Channel, channelsOf, type Resolution } from './shipping-mode.js';

export interface Route {
  resolution: Resolution;
  /** The channels that will be tried. */
  channels: Channel[];
  recipients: EmailRecipients | null;
  /** Why nothing can go out: the document is flagged (or, for an API release, the request refused). */
  blocked: { field: string; message: string } | null;
  /** A channel of the mode that cannot be used although the document goes out the other way. */
  warning: string | null;
}

const NO_ADDRESS = "no e-mail address: neither the invoice's contact nor any contact of the customer has one";

export function routeOf(resolution: Resolution, invoiceContact: Contact | null, customerContacts: Contact[]): Route {
  const channels = channelsOf(resolution.mode);
  const recipients = channels.includes('email') ? emailRecipients(invoiceContact, customerContacts) : null;
  const route: Route = { resolution, channels, recipients, blocked: null, warning: null };
  if (resolution.mode === 'unknown') {
    return { ...route, blocked: { field: 'shipping_mode', message: 'the shipping mode is unknown at invoice, customer and company level' } };
  }
  if (channels.includes('email') && !recipients) {
    if (channels.length === 1) return { ...route, channels: [], blocked: { field: 'contact_id', message: NO_ADDRESS } };
    return { ...route, channels: channels.filter((c) => c !== 'email'), warning: `e-mail not sent, ${NO_ADDRESS}` };
  }
  return route;
}

/**
 * The checks at send time, after the decision to ship and maybe a payment in between: why the document
 * must not go out any more, or null. An invoice must still be a draft; a reminder's invoice must still
 * wait for exactly this reminder and still have money open.
 */
export function sendTimeRefusal(invoice: Invoice, reminder: Reminder | null): string | null {
  if (!reminder) return invoice.status === 'draft' ? null : `the invoice is ${invoice.status}, no longer a draft waiting to be sent`;
  if (invoice.status === 'paid') return 'the invoice was paid in the meantime';
  const expected = `ready_for_reminder${reminder.reminderStage}`;
  if (invoice.status !== expected) return `the invoice is ${invoice.status}, no longer ${expected}`;
  if (!(Number(invoice.openAmount) > 0)) return 'nothing is open on the invoice any more';
  return null;
}
