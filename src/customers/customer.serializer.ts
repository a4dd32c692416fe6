// The exact wire JSON of a customer (spec: Customer) and of its reduced forms inside contacts and invoices.
import type { Contact } from '../contacts/contact.entity.js';
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import { composeAddress } from './address.js';
import type { Customer } from './customer.entity.js';

export interface SerializeContext {
  timeZone: string;
  publicUrl: string;
}

export function serializeContactSummary(contact: Contact, ctx: SerializeContext) {
  return {
    id: toPublicId('con', contact.id),
    external_id: contact.externalId,
    name: contact.name,
    phone: contact.phone,
    gender: contact.gender,
    salutation: contact.salutation,
    email: contact.email,
    created_at: formatDateTime(contact.createdAt, ctx.timeZone),
    updated_at: formatDateTime(contact.updatedAt, ctx.timeZone),
  };
}

export function serializeCustomer(customer: Customer, contacts: Contact[], ctx: SerializeContext) {
  const id = toPublicId('cus', customer.id);
  return {
    id,
    external_id: customer.externalId,
    customer_number: customer.customerNumber,
    additional_number: customer.additionalNumber,
    service_url: `${ctx.publicUrl}/customers/${id}`,
    name: customer.name,
    phone: customer.phone,
    address: composeAddress(customer),
    stop_automatic_reminders: customer.stopAutomaticReminders,
    shipping_mode: customer.shippingMode,
    customer_group_id: customer.customerGroupId,
    note: customer.note,
    customer_type: customer.customerType,
    created_at: formatDateTime(customer.createdAt, ctx.timeZone),
    updated_at: formatDateTime(customer.updatedAt, ctx.timeZone),
    contacts: contacts.map((contact) => serializeContactSummary(contact, ctx)),
  };
}

/** The customer as embedded in a contact or an invoice. */
export function serializeCustomerReference(customer: Customer, ctx: SerializeContext) {
  return {
    id: toPublicId('cus', customer.id),
    external_id: customer.externalId,
    name: customer.name,
    customer_number: customer.customerNumber,
    address: composeAddress(customer),
    created_at: formatDateTime(customer.createdAt, ctx.timeZone),
    updated_at: formatDateTime(customer.updatedAt, ctx.timeZone),
  };
}
