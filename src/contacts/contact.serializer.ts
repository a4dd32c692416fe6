// The exact wire JSON of a contact (spec: Contact), wrapped in {"contact": …} by the controller.
import type { Customer } from '../customers/customer.entity.js';
import { type SerializeContext, serializeCustomerReference } from '../customers/customer.serializer.js';
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import type { Contact } from './contact.entity.js';
import { salutationText } from './salutation.js';

export function serializeContact(contact: Contact, customer: Customer, ctx: SerializeContext) {
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
