import type { Contact } from '../../contacts/contact.entity.js';
import { emailRecipients } from './recipients.js';

let n = 0;
function contact(overrides: Partial<Contact>): Contact {
  n++;
  return {
    companyId: 'c',
    id: `id-${n}`,
    customerId: 'k',
    externalId: null,
    name: `Person ${n}`,
    phone: null,
    gender: 0,
    salutation: 0,
    email: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...overrides,
  };
}

describe(emailRecipients.name, () => {
  it("writes to the invoice's contact, greeted by its salutation text", () => {
    const own = contact({ name: 'Erika Muster', gender: 2, email: 'erika@kunde.de' });
    const result = emailRecipients(own, [contact({ email: 'other@kunde.de' })]);
    expect(result).toEqual({ to: [{ name: 'Erika Muster', address: 'erika@kunde.de' }], salutation: 'Sehr geehrte Frau Muster' });
  });

  it("falls back to the customer's contacts with an address when the invoice's contact has none", () => {
    const own = contact({ email: null });
    const max = contact({ name: 'Max', salutation: 1, email: 'max@kunde.de' });
    expect(emailRecipients(own, [own, max])).toEqual({ to: [{ name: 'Max', address: 'max@kunde.de' }], salutation: 'Hallo Max' });
  });

  it('greets several recipients together and writes to each address once', () => {
    const a = contact({ email: 'a@kunde.de', gender: 1, name: 'A' });
    const b = contact({ email: 'B@kunde.de' });
    const duplicate = contact({ email: 'b@KUNDE.de ' });
    const result = emailRecipients(null, [a, b, duplicate]);
    expect(result?.to.map((t) => t.address)).toEqual(['a@kunde.de', 'B@kunde.de']);
    expect(result?.salutation).toBe('Sehr geehrte Damen und Herren');
  });

  it('has nobody when no contact has an address', () => {
    expect(emailRecipients(contact({}), [contact({ email: '  ' })])).toBeNull();
    expect(emailRecipients(null, [])).toBeNull();
  });
});
