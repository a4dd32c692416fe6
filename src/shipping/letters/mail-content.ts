// Subject and text of the e-mails that carry an invoice or a reminder, from the company's templates.
import type { Reminder } from '../../invoices/reminder.entity.js';
import { PAYMENT_REQUEST } from '../../letters/messages.de.js';
import { invoicePdfKind } from './invoice-kind.js';
import { type LetterParties, type ReminderTerms, senderOf, templateValues } from './letter-content.js';
import { fillTemplate } from '../settings/shipping-settings.js';

export interface MailText {
  subject: string;
  text: string;
}

export function invoiceMail(parties: LetterParties, salutation: string): MailText {
  const values = templateValues(parties, salutation);
  // The company's invoice texts say that the invoice is attached; with a payment request the service
  // rendered in its place (invoice-kind.ts) the e-mail says what is attached instead.
  const templates =
    invoicePdfKind(parties) === 'payment_request'
      ? { invoiceEmailSubject: PAYMENT_REQUEST.emailSubject, invoiceEmailBody: PAYMENT_REQUEST.emailBody }
      : parties.settings.templates;
  return {
    subject: oneLine(fillTemplate(templates.invoiceEmailSubject, values)),
    text: withLegalDetails(fillTemplate(templates.invoiceEmailBody, values), parties),
  };
}

export function reminderMail(parties: LetterParties, salutation: string, reminder: Reminder, terms: ReminderTerms): MailText {
  const values = templateValues(parties, salutation, reminder, terms);
  const { templates } = parties.settings;
  const text = fillTemplate(templates.reminderEmailBody, values);
  // The amounts and how each came about are part of every reminder, also under a company's own template.
  const itemised = templates.reminderEmailBody.includes('{charges}') || !values.charges ? text : `${text}\n\n${values.charges}`;
  return { subject: oneLine(fillTemplate(templates.reminderEmailSubject, values)), text: withLegalDetails(itemised, parties) };
}

/**
 * An e-mail to a named recipient is a business letter: it carries the company's legal details
 * (§ 35a GmbHG, § 37a HGB, § 80 AktG, § 125a HGB) and the bank details below a signature separator,
 * whatever the template says.
 */
function withLegalDetails(text: string, parties: LetterParties): string {
  const sender = senderOf(parties.companyName, parties.settings);
  const [name, ...legal] = sender.legal;
  const lines = [name, sender.address.join(', '), ...legal, sender.bank.join(', ')];
  return `${text.trimEnd()}\n\n-- \n${lines.filter(Boolean).join('\n')}\n`;
}

/** A subject is one line, whatever a template or a customer name brings along. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
