// Subject and text of the e-mails that carry an invoice or a reminder, from the company's templates.
import type { Reminder } from '../../invoices/reminder.entity.js';
import { type LetterParties, type ReminderTerms, templateValues } from './letter-content.js';
import { fillTemplate } from '../settings/shipping-settings.js';

export interface MailText {
  subject: string;
  text: string;
}

export function invoiceMail(parties: LetterParties, salutation: string): MailText {
  const values = templateValues(parties, salutation);
  const { templates } = parties.settings;
  return { subject: oneLine(fillTemplate(templates.invoiceEmailSubject, values)), text: fillTemplate(templates.invoiceEmailBody, values) };
}

export function reminderMail(parties: LetterParties, salutation: string, reminder: Reminder, terms: ReminderTerms): MailText {
  const values = templateValues(parties, salutation, reminder, terms);
  const { templates } = parties.settings;
  const text = fillTemplate(templates.reminderEmailBody, values);
  // The amounts and how each came about are part of every reminder, also under a company's own template.
  const itemised = templates.reminderEmailBody.includes('{charges}') || !values.charges ? text : `${text}\n\n${values.charges}`;
  return { subject: oneLine(fillTemplate(templates.reminderEmailSubject, values)), text: itemised };
}

/** A subject is one line, whatever a template or a customer name brings along. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
