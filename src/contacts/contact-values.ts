// Request fields (wire names) → contact columns, for the contact API and nested `contact[...]`.
import { defined } from '../common/defined.js';
import type { ContactValues } from './contacts.repository.js';
import type { UpdateContactDto } from './dto/contact.dto.js';

export const REQUIRED_CONTACT_FIELDS = ['name', 'gender', 'salutation'] as const;

export const CONTACT_DEFAULTS = { phone: null, externalId: null, email: null } satisfies Partial<ContactValues>;

export function contactValues(dto: UpdateContactDto): Partial<ContactValues> {
  return defined({
    name: dto.name,
    gender: dto.gender,
    salutation: dto.salutation,
    phone: dto.phone,
    externalId: dto.external_id,
    email: dto.email,
  });
}
