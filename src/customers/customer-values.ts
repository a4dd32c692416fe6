// Request fields (wire names) → customer columns, for the customer API and nested `customer[...]`.
import { defined } from '../common/defined.js';
import type { CustomerValues } from './customers.repository.js';
import type { UpdateCustomerDto } from './dto/customer.dto.js';

export const REQUIRED_CUSTOMER_FIELDS = ['name', 'address_line1', 'address_line3', 'zip', 'city', 'country_code'] as const;

/** Columns of a new customer that the request may leave out. */
export const CUSTOMER_DEFAULTS = {
  addressLine2: null,
  addressLine4: null,
  phone: null,
  customerNumber: null,
  additionalNumber: null,
  externalId: null,
  customerGroupId: null,
  stopAutomaticReminders: false,
  shippingMode: null,
  note: null,
  customerType: 'business',
} satisfies Partial<CustomerValues>;

/** Only keys present in the request are taken over. */
export function customerValues(dto: UpdateCustomerDto): Partial<CustomerValues> {
  return defined({
    name: dto.name,
    addressLine1: dto.address_line1,
    addressLine2: dto.address_line2,
    addressLine3: dto.address_line3,
    addressLine4: dto.address_line4,
    zip: dto.zip,
    city: dto.city,
    countryCode: dto.country_code,
    phone: dto.phone,
    customerNumber: dto.customer_number,
    additionalNumber: dto.additional_number,
    externalId: dto.external_id,
    customerGroupId: dto.customer_group_id,
    stopAutomaticReminders: dto.stop_automatic_reminders,
    shippingMode: dto.shipping_mode,
    note: dto.note,
    customerType: dto.customer_type ?? undefined,
  });
}
