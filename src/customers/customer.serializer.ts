// The exact wire JSON of a customer (spec: Customer) and of its reduced forms inside contacts and
// invoices, with their schemas: the compiler checks each serializer against its schema.
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import { PageMetaSchema } from '../openapi/pagination.schema.js';
import {
  booleanProperty,
  dateTimeProperty,
  enumProperty,
  externalIdProperty,
  idProperty,
  serviceUrlProperty,
  textProperty,
} from '../openapi/properties.js';
import { arrayOf, component, type Wire } from '../openapi/schema.js';
import { composeAddress } from './address.js';
import type { ContactSummary } from './customers.repository.js';
import { CUSTOMER_SHIPPING_MODES, CUSTOMER_TYPES, type Customer } from './customer.entity.js';

const ADDRESS = 'Muster GmbH\nz. Hd. Erika Mustermann\nMusterstraße 1\n10115 Berlin\nDE';
const ADDRESS_TEXT =
  'address_line1, address_line2, address_line3, address_line4, "<zip> <city>" and country_code, a line each (empty parts skipped)';

export const ContactSummarySchema = component(
  'ContactSummary',
  {
    id: idProperty('con', 'Service id of the contact'),
    external_id: externalIdProperty(),
    name: textProperty({ example: 'Erika Mustermann' }),
    phone: textProperty({ nullable: true, example: '+49 30 1234567' }),
    gender: enumProperty([0, 1, 2], { description: '0 = unknown, 1 = male, 2 = female' }),
    salutation: enumProperty([0, 1], { description: '0 = formal, 1 = informal' }),
    email: textProperty({ nullable: true, example: 'erika@muster.de' }),
    created_at: dateTimeProperty(),
    updated_at: dateTimeProperty(),
  },
  { description: 'A contact as listed inside its customer' },
);

export const CustomerSchema = component('Customer', {
  id: idProperty('cus', 'Service id of the customer'),
  external_id: externalIdProperty(),
  customer_number: textProperty({ nullable: true, example: 'K-10001' }),
  additional_number: textProperty({ nullable: true }),
  service_url: serviceUrlProperty('customers', 'cus'),
  name: textProperty({ example: 'Muster GmbH' }),
  phone: textProperty({ nullable: true, example: '+49 30 1234567' }),
  address: textProperty({ example: ADDRESS, description: `The full address: ${ADDRESS_TEXT}` }),
  stop_automatic_reminders: booleanProperty({ description: 'true: no automatic reminders' }),
  shipping_mode: enumProperty(CUSTOMER_SHIPPING_MODES, { nullable: true, description: 'null: the company’s setting applies' }),
  customer_group_id: textProperty({ nullable: true }),
  note: textProperty({ nullable: true }),
  customer_type: enumProperty(CUSTOMER_TYPES, {
    description: 'Extension of the spec: decides default interest and the flat fee (BGB § 288)',
  }),
  created_at: dateTimeProperty(),
  updated_at: dateTimeProperty(),
  contacts: arrayOf(ContactSummarySchema, { description: 'All contacts of the customer; empty for a new customer' }),
});

export const CustomerReferenceSchema = component(
  'CustomerReference',
  {
    id: idProperty('cus', 'Service id of the customer'),
    external_id: externalIdProperty(),
    name: textProperty({ example: 'Muster GmbH' }),
    customer_number: textProperty({ nullable: true, example: 'K-10001' }),
    address: textProperty({ example: ADDRESS, description: `The full address: ${ADDRESS_TEXT}` }),
    created_at: dateTimeProperty(),
    updated_at: dateTimeProperty(),
  },
  { description: 'The owning customer, reduced, inside a contact or an invoice' },
);

export const CustomerListSchema = component('CustomerList', { customers: arrayOf(CustomerSchema), meta: PageMetaSchema });

export interface SerializeContext {
  timeZone: string;
  publicUrl: string;
}

export function serializeContactSummary(contact: ContactSummary, ctx: SerializeContext): Wire<typeof ContactSummarySchema> {
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

export function serializeCustomer(customer: Customer, contacts: ContactSummary[], ctx: SerializeContext): Wire<typeof CustomerSchema> {
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
/** What a customer reference shows of the customer (an invoice's view reads only these: invoice-views.sql.ts). */
export const CUSTOMER_REFERENCE_FIELDS = [
  'id',
  'externalId',
  'name',
  'customerNumber',
  'addressLine1',
  'addressLine2',
  'addressLine3',
  'addressLine4',
  'zip',
  'city',
  'countryCode',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof Customer)[];
export type CustomerReference = Pick<Customer, (typeof CUSTOMER_REFERENCE_FIELDS)[number]>;

export function serializeCustomerReference(customer: CustomerReference, ctx: SerializeContext): Wire<typeof CustomerReferenceSchema> {
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
