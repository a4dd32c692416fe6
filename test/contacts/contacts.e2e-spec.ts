import {
  api,
  CONTACT_ID,
  contactParams,
  createContact,
  createCustomer,
  DATETIME,
  errorFields,
  expectProblem,
  fullCustomerParams,
  offsetIn,
  rowCounts,
  setTimestamps,
} from '../support/factories.js';
import { useTestApp } from '../support/use-test-app.js';

const CONTACT_FIELDS = [
  'id',
  'external_id',
  'name',
  'phone',
  'gender',
  'salutation',
  'salutation_text',
  'email',
  'created_at',
  'updated_at',
  'customer',
].sort();
const CUSTOMER_REFERENCE_FIELDS = ['id', 'external_id', 'name', 'customer_number', 'address', 'created_at', 'updated_at'].sort();

describe('contacts', () => {
  let client: ReturnType<typeof api>;
  let customer: Record<string, string>;

  const t = useTestApp({}, { company: true });
  beforeEach(async () => {
    client = api(t.app, t.company);
    customer = await createCustomer(t.app, t.company, fullCustomerParams());
  });

  const create = (body: Record<string, unknown>) => client.postForm('/api/v1/contacts', body);
  const patch = (id: string, body: Record<string, unknown>) => client.patchForm(`/api/v1/contacts/${id}`, body);
  const get = (id: string) => client.get(`/api/v1/contacts/${id}`);
  /** The customer as a contact embeds it: exactly the reduced fields, with the customer's current values. */
  const reduced = (c: Record<string, unknown>) => ({
    id: c.id,
    external_id: c.external_id,
    name: c.name,
    customer_number: c.customer_number,
    address: c.address,
    created_at: c.created_at,
    updated_at: c.updated_at,
  });

  describe('create', () => {
    it('answers 201 with {"contact": …}, every field and the reduced customer, for customer_id', async () => {
      const res = await create({
        customer_id: customer.id,
        name: 'Erika Mustermann',
        gender: '2',
        salutation: '0',
        phone: '+49 30 7654321',
        external_id: 'KON-1',
        email: 'erika@muster.de',
      }).expect(201);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body)).toEqual(['contact']);
      const contact = res.body.contact;
      expect(Object.keys(contact).sort()).toEqual(CONTACT_FIELDS);
      expect(contact).toEqual({
        id: expect.stringMatching(CONTACT_ID),
        external_id: 'KON-1',
        name: 'Erika Mustermann',
        phone: '+49 30 7654321',
        gender: 2,
        salutation: 0,
        salutation_text: 'Sehr geehrte Frau Erika Mustermann',
        email: 'erika@muster.de',
        created_at: expect.stringMatching(DATETIME),
        updated_at: contact.created_at,
        customer: reduced(customer),
      });
      expect(Object.keys(contact.customer).sort()).toEqual(CUSTOMER_REFERENCE_FIELDS);
      expect(contact.created_at.slice(-6)).toBe(offsetIn('Europe/Berlin', new Date(contact.created_at)));
      await get(contact.id).expect(200, res.body);
    });

    it('names the customer by customer[external_id] (form bracket name), case-insensitively', async () => {
      const res = await create(contactParams({ 'customer[external_id]': 'erp-4711' })).expect(201);
      expect(res.body.contact.customer).toEqual(reduced(customer));
    });

    it('takes a JSON body with integers and a nested customer object', async () => {
      const byExternal = await client
        .postJson('/api/v1/contacts', { name: 'Max Muster', gender: 1, salutation: 0, customer: { external_id: 'ERP-4711' } })
        .expect(201);
      expect(byExternal.body.contact).toMatchObject({
        gender: 1,
        salutation: 0,
        salutation_text: 'Sehr geehrter Herr Max Muster',
        customer: { id: customer.id },
      });
      const byId = await client
        .postJson('/api/v1/contacts', { name: 'Eva', gender: 2, salutation: 1, customer_id: customer.id })
        .expect(201);
      expect(byId.body.contact).toMatchObject({ gender: 2, salutation: 1, salutation_text: 'Hallo Eva', customer: { id: customer.id } });
    });

    it('leaves the optional fields null', async () => {
      const res = await create({ customer_id: customer.id, name: 'Nur Pflicht', gender: '0', salutation: '1' }).expect(201);
      expect(res.body.contact).toMatchObject({ external_id: null, phone: null, email: null, gender: 0, salutation: 1 });
    });

    it.each([
      { salutation: 0, gender: 1, name: 'Müller', text: 'Sehr geehrter Herr Müller', variant: 'formal male' },
      { salutation: 0, gender: 2, name: 'Schmidt', text: 'Sehr geehrte Frau Schmidt', variant: 'formal female' },
      { salutation: 0, gender: 0, name: 'Alex Meier', text: 'Sehr geehrte Damen und Herren', variant: 'formal, gender unknown' },
      { salutation: 1, gender: 0, name: 'Alex', text: 'Hallo Alex', variant: 'informal, gender unknown' },
      { salutation: 1, gender: 1, name: 'Max', text: 'Hallo Max', variant: 'informal male' },
      { salutation: 1, gender: 2, name: 'Erika', text: 'Hallo Erika', variant: 'informal female' },
    ])('writes salutation_text "$text" ($variant)', async ({ salutation, gender, name, text }) => {
      const res = await create({ customer_id: customer.id, name, gender: String(gender), salutation: String(salutation) }).expect(201);
      expect(res.body.contact).toMatchObject({ gender, salutation, salutation_text: text });
      expect((await get(res.body.contact.id)).body.contact.salutation_text).toBe(text);
    });

    it('appears in the contact summaries of its customer, oldest first', async () => {
      const first = (await create(contactParams({ customer_id: customer.id, name: 'Erste', external_id: 'K-1' })).expect(201)).body.contact;
      const second = (await create(contactParams({ 'customer[external_id]': 'ERP-4711', name: 'Zweite' })).expect(201)).body.contact;
      const summary = (c: Record<string, unknown>) => ({
        id: c.id,
        external_id: c.external_id,
        name: c.name,
        phone: c.phone,
        gender: c.gender,
        salutation: c.salutation,
        email: c.email,
        created_at: c.created_at,
        updated_at: c.updated_at,
      });
      const viaGet = await client.get(`/api/v1/customers/${customer.id}`).expect(200);
      expect(viaGet.body.contacts).toEqual([summary(first), summary(second)]);
      const viaFind = await client.get('/api/v1/customers/find/erp-4711').expect(200);
      expect(viaFind.body.contacts.map((c: { id: string }) => c.id)).toEqual([first.id, second.id]);
      const viaList = await client.get('/api/v1/customers').expect(200);
      expect(viaList.body.customers[0].contacts.map((c: { id: string }) => c.id)).toEqual([first.id, second.id]);
    });
  });

  describe('customer reference', () => {
    it.each([
      ['an unknown customer_id', { customer_id: 'cus-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f' }, 'customer_id'],
      ['a customer_id that is no customer id', { customer_id: 'con-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f' }, 'customer_id'],
      ['a malformed customer_id', { customer_id: 'nonsense' }, 'customer_id'],
      ['an unknown customer[external_id]', { 'customer[external_id]': 'ERP-0000' }, 'customer[external_id]'],
    ])('refuses %s with 422 naming the field, and stores nothing', async (_what, reference, field) => {
      const res = await create(contactParams(reference));
      expectProblem(res, 422);
      expect(res.body.code).toBe('validation.failed');
      expect(errorFields(res)).toEqual([field]);
      expect((await rowCounts(t.app)).contacts).toBe(0);
    });

    it('refuses a contact without any customer reference with 422 naming the reference fields', async () => {
      for (const body of [
        contactParams(),
        contactParams({ customer_id: '' }),
        contactParams({ customer_id: '', 'customer[external_id]': '' }),
      ]) {
        const res = await create(body);
        expectProblem(res, 422);
        const fields = errorFields(res);
        expect(fields.length).toBeGreaterThan(0);
        for (const field of fields) expect(['customer_id', 'customer[external_id]']).toContain(field);
      }
      expect((await rowCounts(t.app)).contacts).toBe(0);
    });

    it('refuses an unknown customer[external_id] in a JSON body, naming it with the bracket name', async () => {
      const res = await client.postJson('/api/v1/contacts', { name: 'X', gender: 0, salutation: 0, customer: { external_id: 'nope' } });
      expectProblem(res, 422);
      expect(errorFields(res)).toEqual(['customer[external_id]']);
    });

    it('refuses a customer[external_id] that is not text, with the bracket name', async () => {
      const res = await client.postJson('/api/v1/contacts', { name: 'X', gender: 0, salutation: 0, customer: { external_id: 42 } });
      expectProblem(res, 422);
      expect(errorFields(res)).toContain('customer[external_id]');
    });
  });

  describe('validation', () => {
    const emailOf = (length: number) => `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(length - 196)}.de`;

    it.each([
      ['name', 255, (n: number) => 'ä'.repeat(n)],
      ['phone', 50, (n: number) => '1'.repeat(n)],
      ['external_id', 255, (n: number) => 'K'.repeat(n)],
      ['email', 254, emailOf],
    ] as const)('takes %s up to %i characters and refuses one more, naming the field', async (field, max, value) => {
      expect(value(max)).toHaveLength(max);
      const longest = await create(contactParams({ customer_id: customer.id, [field]: value(max) })).expect(201);
      expect(longest.body.contact[field]).toBe(value(max));
      const res = await create(contactParams({ customer_id: customer.id, [field]: value(max + 1) }));
      expectProblem(res, 422);
      // (a 255-character address is also no valid e-mail address: validator.js says so as well)
      expect(new Set(errorFields(res))).toEqual(new Set([field]));
      expect(res.body.errors).toContainEqual({ field, message: `${field} must be shorter than or equal to ${max} characters` });
      expect((await rowCounts(t.app)).contacts).toBe(1);
    });

    it('names every missing required parameter in one 422', async () => {
      const res = await create({ customer_id: customer.id });
      expectProblem(res, 422);
      expect(new Set(errorFields(res))).toEqual(new Set(['name', 'gender', 'salutation']));
      expect((await rowCounts(t.app)).contacts).toBe(0);
    });

    it.each(['name', 'gender', 'salutation'])('refuses a request without %s, naming only that field', async (field) => {
      const body = contactParams({ customer_id: customer.id });
      delete body[field];
      const res = await create(body);
      expectProblem(res, 422);
      expect(new Set(errorFields(res))).toEqual(new Set([field]));
    });

    it.each([
      ['gender', '3'],
      ['gender', '-1'],
      ['gender', 'male'],
      ['gender', '1.0'],
      ['gender', ''],
      ['salutation', '2'],
      ['salutation', 'formal'],
      ['email', 'not-an-e-mail'],
      ['name', '   '],
    ])('refuses %s=%p with 422 naming the field', async (field, value) => {
      const res = await create(contactParams({ customer_id: customer.id, [field]: value }));
      expectProblem(res, 422);
      expect(new Set(errorFields(res))).toEqual(new Set([field]));
      expect((await rowCounts(t.app)).contacts).toBe(0);
    });

    it('refuses JSON strings and floats where integers are expected', async () => {
      const res = await client.postJson('/api/v1/contacts', { customer_id: customer.id, name: 'X', gender: 1.5, salutation: true });
      expectProblem(res, 422);
      expect(new Set(errorFields(res))).toEqual(new Set(['gender', 'salutation']));
    });

    it('answers malformed JSON with 400 and an unsupported Content-Type with 415', async () => {
      const malformed = await t.http
        .post('/api/v1/contacts')
        .set('Authorization', t.company.auth)
        .set('Content-Type', 'application/json')
        .send('{"name":');
      expectProblem(malformed, 400);
      const wrongType = await t.http
        .post('/api/v1/contacts')
        .set('Authorization', t.company.auth)
        .set('Content-Type', 'text/plain')
        .send(`name=X&gender=0&salutation=0&customer_id=${customer.id}`);
      expectProblem(wrongType, 415);
      expect((await rowCounts(t.app)).contacts).toBe(0);
    });

    it('answers a multipart/form-data body with 415 on create and update, storing nothing', async () => {
      const created = await t.http
        .post('/api/v1/contacts')
        .set('Authorization', t.company.auth)
        .field('name', 'X')
        .field('gender', '0')
        .field('salutation', '0')
        .field('customer_id', customer.id);
      expectProblem(created, 415);
      expect(created.body.code).toBe('request.unsupported_media_type');
      expect((await rowCounts(t.app)).contacts).toBe(0);
      const contact = await createContact(t.app, t.company, customer.id);
      const before = (await t.http.get(`/api/v1/contacts/${contact.id}`).set('Authorization', t.company.auth).expect(200)).body;
      const patched = await t.http.patch(`/api/v1/contacts/${contact.id}`).set('Authorization', t.company.auth).field('name', 'Y');
      expectProblem(patched, 415);
      await t.http.get(`/api/v1/contacts/${contact.id}`).set('Authorization', t.company.auth).expect(200, before);
    });
  });

  describe('duplicate external_id', () => {
    it('is a 409 naming the existing contact, case-insensitively, also across customers', async () => {
      const holder = await createContact(t.app, t.company, customer.id, { external_id: 'KON-7' });
      const otherCustomer = await createCustomer(t.app, t.company);
      for (const [taken, customerId] of [
        ['KON-7', customer.id],
        ['kon-7', otherCustomer.id],
      ]) {
        const res = await create(contactParams({ customer_id: customerId, external_id: taken }));
        expectProblem(res, 409);
        expect(res.body).toMatchObject({ code: 'contact.external_id_taken', existing_id: holder.id });
        expect(errorFields(res)).toEqual(['external_id']);
      }
      expect((await rowCounts(t.app)).contacts).toBe(1);
    });

    it('lets exactly one of several concurrent creates with the same external_id win; the others get 409', async () => {
      const answers = await Promise.all(
        ['RACE', 'race', 'Race', 'RACE'].map((key) => create(contactParams({ customer_id: customer.id, external_id: key }))),
      );
      const created = answers.filter((res) => res.status === 201);
      expect(created).toHaveLength(1);
      for (const res of answers.filter((r) => r.status !== 201)) {
        expectProblem(res, 409);
        expect(res.body.existing_id).toBe(created[0].body.contact.id);
      }
      expect((await rowCounts(t.app)).contacts).toBe(1);
    });

    it('does not collide with a customer external_id or with contacts without one', async () => {
      await createContact(t.app, t.company, customer.id, { external_id: 'ERP-4711' });
      await createContact(t.app, t.company, customer.id);
      await createContact(t.app, t.company, customer.id, { external_id: '' });
      expect((await rowCounts(t.app)).contacts).toBe(3);
    });

    it('is a 409 on PATCH, leaving the contact unchanged', async () => {
      const holder = await createContact(t.app, t.company, customer.id, { external_id: 'KON-1' });
      const other = await createContact(t.app, t.company, customer.id, { external_id: 'KON-2' });
      const res = await patch(other.id, { external_id: 'Kon-1', name: 'Nicht gespeichert' });
      expectProblem(res, 409);
      expect(res.body.existing_id).toBe(holder.id);
      expect((await get(other.id)).body.contact).toEqual(other);
    });
  });

  describe('update', () => {
    it('changes every create parameter and keeps id and created_at', async () => {
      const contact = await createContact(t.app, t.company, customer.id, { name: 'Alt', gender: '0', salutation: '0' });
      await setTimestamps(t.app, 'contacts', contact.id, '2026-03-01T08:00:00Z');
      const res = await patch(contact.id, {
        name: 'Neu',
        gender: '1',
        salutation: '0',
        phone: '0170 1',
        external_id: 'KON-NEU',
        email: 'neu@muster.de',
      }).expect(200);
      expect(Object.keys(res.body)).toEqual(['contact']);
      expect(res.body.contact).toEqual({
        id: contact.id,
        external_id: 'KON-NEU',
        name: 'Neu',
        phone: '0170 1',
        gender: 1,
        salutation: 0,
        salutation_text: 'Sehr geehrter Herr Neu',
        email: 'neu@muster.de',
        created_at: '2026-03-01T09:00:00+01:00',
        updated_at: expect.stringMatching(DATETIME),
        customer: reduced(customer),
      });
      expect(new Date(res.body.contact.updated_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
      await get(contact.id).expect(200, res.body);
      const summary = (await client.get(`/api/v1/customers/${customer.id}`)).body.contacts[0];
      expect(summary).toMatchObject({
        id: contact.id,
        name: 'Neu',
        gender: 1,
        email: 'neu@muster.de',
        updated_at: res.body.contact.updated_at,
      });
    });

    it('changes only what is sent (the spec sample sends only name), and the greeting follows', async () => {
      const contact = await createContact(t.app, t.company, customer.id, {
        name: 'Erika',
        gender: '2',
        salutation: '0',
        email: 'e@muster.de',
        external_id: 'K-9',
      });
      const renamed = await patch(contact.id, { name: 'Erika Neu' }).expect(200);
      expect(renamed.body.contact).toEqual({
        ...contact,
        name: 'Erika Neu',
        salutation_text: 'Sehr geehrte Frau Erika Neu',
        updated_at: expect.stringMatching(DATETIME),
      });
      const informal = await client.patchJson(`/api/v1/contacts/${contact.id}`, { salutation: 1 }).expect(200);
      expect(informal.body.contact).toMatchObject({ salutation: 1, salutation_text: 'Hallo Erika Neu', gender: 2 });
      const unknownGender = await patch(contact.id, { salutation: '0', gender: '0' }).expect(200);
      expect(unknownGender.body.contact.salutation_text).toBe('Sehr geehrte Damen und Herren');
    });

    it('clears optional fields with an empty value', async () => {
      const contact = await createContact(t.app, t.company, customer.id, { phone: '030 1', email: 'x@muster.de', external_id: 'K-CLEAR' });
      const res = await patch(contact.id, { phone: '', email: '', external_id: '' }).expect(200);
      expect(res.body.contact).toMatchObject({ phone: null, email: null, external_id: null, name: contact.name });
      await client.get('/api/v1/contacts/find/K-CLEAR').expect(404);
    });

    it.each(['name', 'gender', 'salutation'])('refuses to clear the required field %s with 422, changing nothing', async (field) => {
      const contact = await createContact(t.app, t.company, customer.id);
      const res = await patch(contact.id, { [field]: '', phone: '999' });
      expectProblem(res, 422);
      expect(new Set(errorFields(res))).toEqual(new Set([field]));
      expect((await get(contact.id)).body.contact).toEqual(contact);
    });

    it('moves a contact to another customer by customer_id or customer[external_id]', async () => {
      const contact = await createContact(t.app, t.company, customer.id);
      const target = await createCustomer(t.app, t.company, { external_id: 'ZIEL-1' });
      const moved = await patch(contact.id, { customer_id: target.id }).expect(200);
      expect(moved.body.contact.customer).toEqual(reduced(target));
      expect((await client.get(`/api/v1/customers/${customer.id}`)).body.contacts).toEqual([]);
      expect((await client.get(`/api/v1/customers/${target.id}`)).body.contacts.map((c: { id: string }) => c.id)).toEqual([contact.id]);
      const back = await patch(contact.id, { 'customer[external_id]': 'erp-4711' }).expect(200);
      expect(back.body.contact.customer.id).toBe(customer.id);
    });

    it('refuses to move a contact to an unknown customer with 422, changing nothing', async () => {
      const contact = await createContact(t.app, t.company, customer.id);
      const res = await patch(contact.id, { customer_id: 'cus-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f', name: 'Nicht gespeichert' });
      expectProblem(res, 422);
      expect(errorFields(res)).toEqual(['customer_id']);
      const byExternal = await patch(contact.id, { 'customer[external_id]': 'nope', name: 'Nicht gespeichert' });
      expectProblem(byExternal, 422);
      expect(errorFields(byExternal)).toEqual(['customer[external_id]']);
      expect((await get(contact.id)).body.contact).toEqual(contact);
    });

    it('refuses invalid values with 422, changing nothing', async () => {
      const contact = await createContact(t.app, t.company, customer.id);
      const res = await patch(contact.id, { gender: '5', email: 'kaputt', name: 'Nicht gespeichert' });
      expectProblem(res, 422);
      expect(new Set(errorFields(res))).toEqual(new Set(['gender', 'email']));
      expect((await get(contact.id)).body.contact).toEqual(contact);
    });

    it('shows the current customer in the embedded reference', async () => {
      const contact = await createContact(t.app, t.company, customer.id);
      const renamed = await client
        .patchForm(`/api/v1/customers/${customer.id}`, { name: 'Umbenannt AG', customer_number: 'K-2' })
        .expect(200);
      const res = await get(contact.id).expect(200);
      expect(res.body.contact.customer).toEqual(reduced(renamed.body));
      expect(res.body.contact.customer).toMatchObject({ name: 'Umbenannt AG', customer_number: 'K-2' });
    });

    it('answers 404 for a contact that does not exist', async () => {
      for (const id of ['con-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f', customer.id, 'nonsense']) {
        const res = await patch(id, { name: 'X' });
        expectProblem(res, 404);
        expect(res.body.code).toBe('contact.not_found');
      }
    });
  });

  describe('get and find', () => {
    it('gets a contact by id and answers 404 for unknown ids', async () => {
      const contact = await createContact(t.app, t.company, customer.id);
      expect((await get(contact.id).expect(200)).body).toEqual({ contact });
      for (const id of ['con-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f', customer.id, 'con-', 'x']) {
        const res = await get(id);
        expectProblem(res, 404);
        expect(res.body.code).toBe('contact.not_found');
      }
    });

    it('finds a contact by external_id in any case, and only by the whole id', async () => {
      const contact = await createContact(t.app, t.company, customer.id, { external_id: 'Kon-AbC-1' });
      for (const key of ['Kon-AbC-1', 'kon-abc-1', 'KON-ABC-1']) {
        await client.get(`/api/v1/contacts/find/${key}`).expect(200, { contact });
      }
      for (const key of ['Kon-AbC', 'Kon_AbC-1', 'Kon-AbC-1%25']) {
        const res = await client.get(`/api/v1/contacts/find/${key}`);
        expectProblem(res, 404);
        expect(res.body.code).toBe('contact.not_found');
      }
    });

    it('finds non-ASCII external ids in any case', async () => {
      const contact = await createContact(t.app, t.company, customer.id, { external_id: 'JÜRGEN-Ö' });
      await client.get(`/api/v1/contacts/find/${encodeURIComponent('jürgen-ö')}`).expect(200, { contact });
    });

    it('does not find a contact by its customer external_id', async () => {
      await createContact(t.app, t.company, customer.id);
      expectProblem(await client.get('/api/v1/contacts/find/ERP-4711'), 404);
    });
  });
});
