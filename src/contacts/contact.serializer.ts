// The exact wire JSON of a contact (spec: Contact) with its generated salutation_text and reduced
// customer, wrapped in {"contact": …} by the controller, and its schema; and the reduced contact an
// invoice shows (ContactReference).
import type { Customer } from '../customers/customer.entity.js';
import { CustomerReferenceSchema, type SerializeContext, serializeCustomerReference } from '../customers/customer.serializer.js';
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import { dateTimeProperty, enumProperty, externalIdProperty, idProperty, textProperty } from '../openapi/properties.js';
import { component, type Wire } from '../openapi/schema.js';
import type { Contact } from './contact.entity.js';
import { salutationText } from './salutation.js';

const SALUTATION_TEXT =
  'Generated: formal male "Sehr geehrter Herr <name>", formal female "Sehr geehrte Frau <name>", ' +
  'formal with unknown gender or no name "Sehr geehrte Damen und Herren", informal "Hallo <name>"';

export const ContactSchema = component('Contact', {
  id: idProperty('con', 'Service id of the contact'),
  external_id: externalIdProperty(),
  name: textProperty({ example: 'Erika Mustermann' }),
  phone: textProperty({ nullable: true, example: '+49 30 1234567' }),
  gender: enumProperty([0, 1, 2], { description: '0 = unknown, 1 = male, 2 = female' }),
  salutation: enumProperty([0, 1], { description: '0 = formal, 1 = informal' }),
  salutation_text: textProperty({ example: 'Sehr geehrte Frau Erika Mustermann', description: SALUTATION_TEXT }),
  email: textProperty({ nullable: true, example: 'erika@muster.de' }),
  created_at: dateTimeProperty(),
  updated_at: dateTimeProperty(),
  customer: CustomerReferenceSchema,
});

export const ContactResponseSchema = component(
  'ContactResponse',
  { contact: ContactSchema },
  { description: 'A contact, wrapped in an object with the single key `contact`' },
);

export function serializeContact(contact: Contact, customer: Customer, ctx: SerializeContext): Wire<typeof ContactSchema> {
  return {
    id: toPublicId('con', contact.id),
    external_id: contact.externalId,
    name: contact.name,
    phone: contact.phone,
    gender: contact.gender,
    salutation: contact.salutation,
    salutation_text: salutationText(contact.salutation, contact.gender, contact.name),
    email: contact.email,
    created_at: formatDateTime(contact.createdAt, ctx.timeZone),
    updated_at: formatDateTime(contact.updatedAt, ctx.timeZone),
    customer: serializeCustomerReference(customer, ctx),
  };
}

export const ContactReferenceSchema = component(
  'ContactReference',
  {
    id: idProperty('con', 'Service id of the contact'),
    external_id: externalIdProperty(),
    name: textProperty({ example: 'Erika Mustermann' }),
    gender: enumProperty([0, 1, 2], { description: '0 = unknown, 1 = male, 2 = female' }),
    salutation: enumProperty([0, 1], { description: '0 = formal, 1 = informal' }),
    email: textProperty({ nullable: true, example: 'erika@muster.de' }),
    created_at: dateTimeProperty(),
    updated_at: dateTimeProperty(),
  },
  { description: 'The invoice’s contact, reduced' },
);

/** What a contact reference shows of the contact (an invoice's view reads only these: src/invoices/invoice-views.sql.ts). */
export const CONTACT_REFERENCE_FIELDS = [
  'id',
  'externalId',
  'name',
  'gender',
  'salutation',
  'email',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof Contact)[];
export type ContactReference = Pick<Contact, (typeof CONTACT_REFERENCE_FIELDS)[number]>;

export function serializeContactReference(contact: ContactReference, ctx: SerializeContext): Wire<typeof ContactReferenceSchema> {
  return {
    id: toPublicId('con', contact.id),
    external_id: contact.externalId,
    name: contact.name,
    gender: contact.gender,
    salutation: contact.salutation,
    email: contact.email,
    created_at: formatDateTime(contact.createdAt, ctx.timeZone),
    updated_at: formatDateTime(contact.updatedAt, ctx.timeZone),
  };
}
