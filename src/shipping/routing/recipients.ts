// Who receives an e-mail: the invoice's contact when it has an address, else every contact of the
// customer that has one. The greeting is that person's letter greeting (title and surname, see
// contacts/salutation.ts); several people are greeted together ("Sehr geehrte Damen und Herren").
import type { Contact } from '../../contacts/contact.entity.js';
import { letterGreeting } from '../../contacts/salutation.js';
import { GREETING } from '../../letters/messages.de.js';
import type { MailAddress } from '../../mail/mail-sender.js';

export interface EmailRecipients {
  to: MailAddress[];
  salutation: string;
}

const GENERIC_GREETING = GREETING.generic;

export function greetingOf(contact: Contact | null): string {
  return contact ? letterGreeting(contact.salutation, contact.gender, contact.name) : GENERIC_GREETING;
}

/** null: nobody to write to (the delivery is flagged, not attempted). */
export function emailRecipients(invoiceContact: Contact | null, customerContacts: Contact[]): EmailRecipients | null {
  if (invoiceContact?.email?.trim()) {
    return { to: [addressOf(invoiceContact)], salutation: greetingOf(invoiceContact) };
  }
  const seen = new Set<string>();
  const withEmail = customerContacts.filter((contact) => {
    const key = contact.email?.trim().toLowerCase();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (withEmail.length === 0) return null;
  return { to: withEmail.map(addressOf), salutation: withEmail.length === 1 ? greetingOf(withEmail[0]) : GENERIC_GREETING };
}

function addressOf(contact: Contact): MailAddress {
  return { name: contact.name, address: (contact.email as string).trim() };
}
