import request from 'supertest';
import {
  api,
  CONTACT_ID,
  CUSTOMER_ID,
  createContact,
  createCustomer,
  customerParams,
  DATETIME,
  errorFields,
  expectProblem,
  fullCustomerParams,
  offsetIn,
  rowCounts,
  setTimestamps,
} from '../support/factories.js';
import { PUBLIC_URL, afterCredentialCache } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

const CUSTOMER_FIELDS = [
  'id',
  'external_id',
  'customer_number',
  'additional_number',
  'service_url',
  'name',
  'phone',
  'address',
  'stop_automatic_reminders',
  'shipping_mode',
  'customer_group_id',
  'note',
  // Extension of the spec (dunning: default interest and the flat fee of BGB § 288).
  'customer_type',
  'created_at',
  'updated_at',
  'contacts',
].sort();
const REQUIRED = ['name', 'address_line1', 'address_line3', 'zip', 'city', 'country_code'];
const OPTIONAL_TEXT = [
  'phone',
  'address_line2',
  'address_line4',
  'customer_number',
  'additional_number',
  'external_id',
  'customer_group_id',
  'note',
];

describe('customers', () => {
  const t = useTestApp({}, { company: true });
  let client: ReturnType<typeof api>;

  beforeEach(() => {
    client = api(t.app, t.company);
  });

  const create = (body: Record<string, unknown>) => client.postForm('/api/v1/customers', body);
  const get = (id: string) => client.get(`/api/v1/customers/${id}`);

  /** Creates n customers one after the other (so that creation order is list order) and returns their ids. */
  async function createMany(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await createCustomer(t.app, t.company, { name: `Kunde ${String(i).padStart(2, '0')}` })).id);
    return ids;
  }

  describe('create', () => {
    it('answers 201 with every field of the spec, in the exact wire format', async () => {
      const before = Date.now();
      const res = await create(fullCustomerParams()).expect(201);
      const body = res.body;
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(body).sort()).toEqual(CUSTOMER_FIELDS);
      expect(body).toEqual({
        id: expect.stringMatching(CUSTOMER_ID),
        external_id: 'ERP-4711',
        customer_number: 'K-10001',
        additional_number: 'A-77',
        service_url: `${PUBLIC_URL}/customers/${body.id}`,
        name: 'Muster GmbH',
        phone: '+49 30 1234567',
        address: 'Muster GmbH\nz. Hd. Erika Mustermann\nMusterstraße 1\nHinterhaus\n10115 Berlin\nDE',
        stop_automatic_reminders: true,
        shipping_mode: 'dual_shipping',
        customer_group_id: 'grp-b2b',
        note: 'Zahlt immer pünktlich',
        customer_type: 'business',
        created_at: expect.stringMatching(DATETIME),
        updated_at: body.created_at,
        contacts: [],
      });
      // The company's zone (Europe/Berlin by default) decides the offset, and the instant is now.
      const created = new Date(body.created_at);
      expect(body.created_at.slice(-6)).toBe(offsetIn('Europe/Berlin', created));
      expect(created.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(created.getTime()).toBeLessThanOrEqual(Date.now());
      await get(body.id).expect(200, body);
    });

    it('leaves optional fields null, skips empty address lines and defaults stop_automatic_reminders to false', async () => {
      const res = await create({
        name: 'Nur Pflicht',
        address_line1: 'Nur Pflicht AG',
        address_line3: 'Weg 2',
        zip: '80331',
        city: 'München',
        country_code: 'DE',
      }).expect(201);
      expect(res.body).toMatchObject({
        external_id: null,
        customer_number: null,
        additional_number: null,
        name: 'Nur Pflicht',
        phone: null,
        address: 'Nur Pflicht AG\nWeg 2\n80331 München\nDE',
        stop_automatic_reminders: false,
        shipping_mode: null,
        customer_group_id: null,
        note: null,
        customer_type: 'business',
        contacts: [],
      });
    });

    it('composes the address from the address lines, not from the name', async () => {
      const res = await create(
        customerParams({
          name: 'Kurzname',
          address_line1: 'Langer Firmenname GmbH & Co. KG',
          address_line3: 'Lindenallee 5',
          address_line4: 'Postfach 12',
        }),
      ).expect(201);
      expect(res.body.name).toBe('Kurzname');
      expect(res.body.address).toBe('Langer Firmenname GmbH & Co. KG\nLindenallee 5\nPostfach 12\n10115 Berlin\nDE');
    });

    it('accepts a JSON body with JSON types', async () => {
      const res = await client
        .postJson('/api/v1/customers', { ...fullCustomerParams({ external_id: 'JSON-1' }), stop_automatic_reminders: false })
        .expect(201);
      expect(res.body).toMatchObject({
        external_id: 'JSON-1',
        stop_automatic_reminders: false,
        shipping_mode: 'dual_shipping',
        name: 'Muster GmbH',
      });
      const withTrue = await client.postJson('/api/v1/customers', customerParams({ stop_automatic_reminders: true })).expect(201);
      expect(withTrue.body.stop_automatic_reminders).toBe(true);
    });

    it.each([
      ['true', true],
      ['1', true],
      ['false', false],
      ['0', false],
    ])('reads the form boolean %p as the JSON boolean %p', async (sent, expected) => {
      const res = await create(customerParams({ stop_automatic_reminders: sent })).expect(201);
      expect(res.body.stop_automatic_reminders).toBe(expected);
      await get(res.body.id)
        .expect(200)
        .expect((r) => expect(r.body.stop_automatic_reminders).toBe(expected));
    });

    it.each(['email', 'post', 'dual_shipping', 'unknown'])('stores the shipping mode %s', async (mode) => {
      const res = await create(customerParams({ shipping_mode: mode })).expect(201);
      expect(res.body.shipping_mode).toBe(mode);
    });

    it('trims text and writes the country code in capitals', async () => {
      const res = await create(
        customerParams({
          name: '  Trim GmbH  ',
          address_line1: ' Trim GmbH ',
          address_line3: '  Ring 1 ',
          country_code: 'at',
          city: ' Wien ',
          zip: ' 1010 ',
        }),
      ).expect(201);
      expect(res.body.name).toBe('Trim GmbH');
      expect(res.body.address).toBe('Trim GmbH\nRing 1\n1010 Wien\nAT');
    });

    it('ignores fields the client may not set (id, timestamps, contacts)', async () => {
      const res = await create(
        customerParams({
          id: 'cus-00000000-0000-4000-8000-000000000000',
          created_at: '2000-01-01T00:00:00+01:00',
          service_url: 'https://evil.test',
        }),
      ).expect(201);
      expect(res.body.id).not.toBe('cus-00000000-0000-4000-8000-000000000000');
      expect(res.body.created_at.startsWith('2000')).toBe(false);
      expect(res.body.service_url).toBe(`${PUBLIC_URL}/customers/${res.body.id}`);
    });
  });

  describe('datetimes', () => {
    it('are written with the offset of the company time zone, winter and summer', async () => {
      const { id } = await createCustomer(t.app, t.company);
      await setTimestamps(t.app, 'customers', id, '2026-11-21T19:53:00.456Z');
      await get(id)
        .expect(200)
        .expect((r) => expect(r.body).toMatchObject({ created_at: '2026-11-21T20:53:00+01:00', updated_at: '2026-11-21T20:53:00+01:00' }));
      await setTimestamps(t.app, 'customers', id, '2026-07-01T10:00:00Z');
      await get(id)
        .expect(200)
        .expect((r) => expect(r.body.created_at).toBe('2026-07-01T12:00:00+02:00'));
    });

    it('follow a company with another time zone', async () => {
      const { id } = await createCustomer(t.app, t.company);
      await setTimestamps(t.app, 'customers', id, '2026-01-01T02:30:00Z');
      await t.db.query(`UPDATE companies SET time_zone = 'America/New_York' WHERE id = $1`, [t.company.id.slice(4)]);
      afterCredentialCache(t.app);
      await get(id)
        .expect(200)
        .expect((r) => expect(r.body.created_at).toBe('2025-12-31T21:30:00-05:00'));
    });
  });

  describe('update', () => {
    it('changes every create parameter with PATCH and keeps id and created_at', async () => {
      const created = await createCustomer(t.app, t.company);
      await setTimestamps(t.app, 'customers', created.id, '2026-01-10T09:00:00Z');
      const res = await client
        .patchForm(`/api/v1/customers/${created.id}`, {
          ...fullCustomerParams(),
          name: 'Neu AG',
          address_line1: 'Neu AG',
          address_line3: 'Neuer Weg 9',
          zip: '20095',
          city: 'Hamburg',
          country_code: 'AT',
          stop_automatic_reminders: 'true',
          shipping_mode: 'post',
        })
        .expect(200);
      expect(res.body).toEqual({
        id: created.id,
        external_id: 'ERP-4711',
        customer_number: 'K-10001',
        additional_number: 'A-77',
        service_url: `${PUBLIC_URL}/customers/${created.id}`,
        name: 'Neu AG',
        phone: '+49 30 1234567',
        address: 'Neu AG\nz. Hd. Erika Mustermann\nNeuer Weg 9\nHinterhaus\n20095 Hamburg\nAT',
        stop_automatic_reminders: true,
        shipping_mode: 'post',
        customer_group_id: 'grp-b2b',
        note: 'Zahlt immer pünktlich',
        customer_type: 'business',
        created_at: '2026-01-10T10:00:00+01:00',
        updated_at: expect.stringMatching(DATETIME),
        contacts: [],
      });
      expect(new Date(res.body.updated_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
      await get(created.id).expect(200, res.body);
    });

    it('changes only the parameters sent (the spec sample sends only name)', async () => {
      const created = (await create(fullCustomerParams()).expect(201)).body;
      const res = await client.patchForm(`/api/v1/customers/${created.id}`, { name: 'Umbenannt GmbH' }).expect(200);
      expect(res.body).toEqual({ ...created, name: 'Umbenannt GmbH', updated_at: expect.stringMatching(DATETIME) });
      // The address starts with address_line1, which did not change.
      expect(res.body.address).toBe(created.address);
      await get(created.id).expect(200, res.body);
    });

    it('accepts a JSON body', async () => {
      const created = await createCustomer(t.app, t.company);
      const res = await client
        .patchJson(`/api/v1/customers/${created.id}`, { stop_automatic_reminders: true, note: 'per JSON' })
        .expect(200);
      expect(res.body).toMatchObject({ stop_automatic_reminders: true, note: 'per JSON', name: created.name });
    });

    it('sets stop_automatic_reminders back to false', async () => {
      const created = (await create(customerParams({ stop_automatic_reminders: 'true' })).expect(201)).body;
      const res = await client.patchForm(`/api/v1/customers/${created.id}`, { stop_automatic_reminders: 'false' }).expect(200);
      expect(res.body.stop_automatic_reminders).toBe(false);
      expect((await get(created.id)).body.stop_automatic_reminders).toBe(false);
    });

    it('clears every optional field with an empty form value', async () => {
      const created = (await create(fullCustomerParams()).expect(201)).body;
      const cleared = Object.fromEntries([...OPTIONAL_TEXT, 'shipping_mode'].map((field) => [field, '']));
      const res = await client.patchForm(`/api/v1/customers/${created.id}`, cleared).expect(200);
      expect(res.body).toMatchObject({
        external_id: null,
        customer_number: null,
        additional_number: null,
        phone: null,
        customer_group_id: null,
        note: null,
        shipping_mode: null,
        address: 'Muster GmbH\nMusterstraße 1\n10115 Berlin\nDE',
        name: 'Muster GmbH',
      });
      await get(created.id).expect(200, res.body);
      // A cleared external_id no longer finds the customer, and is free for another one.
      await client.get('/api/v1/customers/find/ERP-4711').expect(404);
      await create(customerParams({ external_id: 'ERP-4711' })).expect(201);
    });

    it('clears optional fields with JSON null', async () => {
      const created = (await create(fullCustomerParams()).expect(201)).body;
      const res = await client.patchJson(`/api/v1/customers/${created.id}`, { note: null, phone: null, shipping_mode: null }).expect(200);
      expect(res.body).toMatchObject({ note: null, phone: null, shipping_mode: null, customer_number: 'K-10001' });
    });

    it.each(REQUIRED)('refuses to clear the required field %s with 422 naming it, and changes nothing', async (field) => {
      const created = (await create(fullCustomerParams()).expect(201)).body;
      const res = await client.patchForm(`/api/v1/customers/${created.id}`, { [field]: '', note: 'nicht gespeichert' });
      expectProblem(res, 422);
      expect(res.body.code).toBe('validation.failed');
      expect(new Set(errorFields(res))).toEqual(new Set([field]));
      await get(created.id).expect(200, created);
    });

    it.each(REQUIRED)('refuses JSON null for the required field %s', async (field) => {
      const created = (await create(fullCustomerParams()).expect(201)).body;
      const res = await client.patchJson(`/api/v1/customers/${created.id}`, { [field]: null });
      expectProblem(res, 422);
      expect(new Set(errorFields(res))).toEqual(new Set([field]));
      await get(created.id).expect(200, created);
    });

    it('validates types and enums like create, and stores nothing of a refused request', async () => {
      const created = (await create(fullCustomerParams()).expect(201)).body;
      const res = await client.patchForm(`/api/v1/customers/${created.id}`, {
        name: 'Nicht gespeichert',
        shipping_mode: 'fax',
        stop_automatic_reminders: 'maybe',
        country_code: 'XX',
      });
      expectProblem(res, 422);
      expect(new Set(errorFields(res))).toEqual(new Set(['shipping_mode', 'stop_automatic_reminders', 'country_code']));
      await get(created.id).expect(200, created);
    });

    it('an empty PATCH changes nothing', async () => {
      const created = (await create(fullCustomerParams()).expect(201)).body;
      await client.patchForm(`/api/v1/customers/${created.id}`, {}).expect(200, created);
    });

    it('refuses an external_id another customer holds (any case) with 409 naming it, but keeps its own in another case', async () => {
      const holder = await createCustomer(t.app, t.company, { external_id: 'ERP-1' });
      const other = (await create(customerParams({ external_id: 'ERP-2' })).expect(201)).body;
      const res = await client.patchForm(`/api/v1/customers/${other.id}`, { external_id: 'erp-1', name: 'Nicht gespeichert' });
      expectProblem(res, 409);
      expect(res.body).toMatchObject({ code: 'customer.external_id_taken', existing_id: holder.id });
      await get(other.id).expect(200, other);
      const recased = await client.patchForm(`/api/v1/customers/${other.id}`, { external_id: 'erp-2' }).expect(200);
      expect(recased.body.external_id).toBe('erp-2');
    });

    it('answers 404 for a customer that does not exist', async () => {
      expectProblem(await client.patchForm('/api/v1/customers/cus-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f', { name: 'X' }), 404);
      expectProblem(await client.patchForm('/api/v1/customers/nonsense', { name: 'X' }), 404);
    });
  });

  describe('list', () => {
    const list = (query = '') => client.get(`/api/v1/customers${query}`);

    it('answers an empty list with the full meta object', async () => {
      const res = await list().expect(200);
      expect(res.body).toEqual({
        customers: [],
        meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 0, per_page: 30, total_count: 0 },
      });
    });

    it('shows exactly 30 customers on one page, oldest first, each as the full Customer object', async () => {
      const ids = await createMany(30);
      const res = await list().expect(200);
      expect(res.body.customers.map((c: { id: string }) => c.id)).toEqual(ids);
      expect(res.body.meta).toEqual({ current_page: 1, next_page: null, prev_page: null, total_pages: 1, per_page: 30, total_count: 30 });
      const single = await get(ids[7]).expect(200);
      expect(res.body.customers[7]).toEqual(single.body);
      const page2 = await list('?page=2').expect(200);
      expect(page2.body).toEqual({
        customers: [],
        meta: { current_page: 2, next_page: null, prev_page: 1, total_pages: 1, per_page: 30, total_count: 30 },
      });
    });

    it('puts the 31st customer on a second, last page', async () => {
      const ids = await createMany(31);
      const first = await list('?page=1').expect(200);
      expect(first.body.customers).toHaveLength(30);
      expect(first.body.meta).toEqual({ current_page: 1, next_page: 2, prev_page: null, total_pages: 2, per_page: 30, total_count: 31 });
      const last = await list('?page=2').expect(200);
      expect(last.body.customers).toHaveLength(1);
      expect(last.body.meta).toEqual({ current_page: 2, next_page: null, prev_page: 1, total_pages: 2, per_page: 30, total_count: 31 });
      const seen = [...first.body.customers, ...last.body.customers].map((c: { id: string }) => c.id);
      expect(seen).toEqual(ids);
    });

    it('answers a page beyond the end with an empty list and the real totals', async () => {
      await createMany(3);
      const res = await list('?page=5').expect(200);
      expect(res.body).toEqual({
        customers: [],
        meta: { current_page: 5, next_page: null, prev_page: 4, total_pages: 1, per_page: 30, total_count: 3 },
      });
    });

    it('takes per_page up to 100', async () => {
      const ids = await createMany(11);
      const page = await list('?per_page=5&page=2').expect(200);
      expect(page.body.customers.map((c: { id: string }) => c.id)).toEqual(ids.slice(5, 10));
      expect(page.body.meta).toEqual({ current_page: 2, next_page: 3, prev_page: 1, total_pages: 3, per_page: 5, total_count: 11 });
      const last = await list('?per_page=5&page=3').expect(200);
      expect(last.body.customers.map((c: { id: string }) => c.id)).toEqual(ids.slice(10));
      expect(last.body.meta.next_page).toBeNull();
      const all = await list('?per_page=100').expect(200);
      expect(all.body.customers).toHaveLength(11);
      expect(all.body.meta).toMatchObject({ per_page: 100, total_pages: 1 });
    });

    it.each(['0', '-1', 'abc', '1.5', '', '2x', '1e2'])('refuses page=%p with a 400 problem document naming page', async (page) => {
      const res = await list(`?page=${encodeURIComponent(page)}`);
      expectProblem(res, 400);
      expect(errorFields(res)).toEqual(['page']);
    });

    it('refuses a repeated page parameter with 400', async () => {
      const res = await list('?page=1&page=2');
      expectProblem(res, 400);
      expect(errorFields(res)).toEqual(['page']);
    });

    it.each(['0', '-5', '101', 'ten'])('refuses per_page=%p with 400 naming per_page', async (perPage) => {
      const res = await list(`?per_page=${perPage}`);
      expectProblem(res, 400);
      expect(errorFields(res)).toEqual(['per_page']);
    });

    it('shows each customer with its contact summaries', async () => {
      const [first, second] = await createMany(2);
      const contact = await createContact(t.app, t.company, second, { name: 'Erika' });
      const res = await list().expect(200);
      expect(res.body.customers[0]).toMatchObject({ id: first, contacts: [] });
      expect(res.body.customers[1].contacts).toEqual([expect.objectContaining({ id: contact.id, name: 'Erika' })]);
    });
  });

  describe('get', () => {
    it.each([
      ['an unknown id', 'cus-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f'],
      ['a contact id', 'con-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f'],
      ['a bare uuid', '6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f'],
      ['garbage', 'cus-not-a-uuid'],
    ])('answers 404 for %s', async (_what, id) => {
      const res = await get(id);
      expectProblem(res, 404);
      expect(res.body.code).toBe('customer.not_found');
    });

    it('reads a customer by an upper-case id', async () => {
      const { id } = await createCustomer(t.app, t.company);
      await get(`cus-${id.slice(4).toUpperCase()}`)
        .expect(200)
        .expect((r) => expect(r.body.id).toBe(id));
    });
  });

  describe('contacts of a customer', () => {
    it('lists the contact summaries, oldest first, with exactly the summary fields', async () => {
      const customer = await createCustomer(t.app, t.company);
      const erika = await createContact(t.app, t.company, customer.id, {
        name: 'Erika Muster',
        gender: '2',
        salutation: '0',
        email: 'erika@muster.de',
        phone: '030 1',
        external_id: 'C-1',
      });
      const max = await createContact(t.app, t.company, customer.id, { name: 'Max', gender: '1', salutation: '1' });
      const res = await get(customer.id).expect(200);
      expect(res.body.contacts).toEqual([
        {
          id: erika.id,
          external_id: 'C-1',
          name: 'Erika Muster',
          phone: '030 1',
          gender: 2,
          salutation: 0,
          email: 'erika@muster.de',
          created_at: erika.created_at,
          updated_at: erika.updated_at,
        },
        expect.objectContaining({
          id: expect.stringMatching(CONTACT_ID),
          name: 'Max',
          gender: 1,
          salutation: 1,
          external_id: null,
          email: null,
        }),
      ]);
      expect(res.body.contacts[1].id).toBe(max.id);
      // Customers of the same company do not share contacts.
      const other = await createCustomer(t.app, t.company);
      expect((await get(other.id)).body.contacts).toEqual([]);
    });
  });

  describe('find', () => {
    it('finds by external_id in any case', async () => {
      const created = (await create(fullCustomerParams({ external_id: 'Kd-4711-aB' })).expect(201)).body;
      for (const key of ['Kd-4711-aB', 'kd-4711-ab', 'KD-4711-AB']) {
        await client.get(`/api/v1/customers/find/${key}`).expect(200, created);
      }
    });

    it('finds external ids with slashes, spaces and percent signs', async () => {
      const created = await createCustomer(t.app, t.company, { external_id: 'ERP/2026 #1 100%' });
      const res = await client.get(`/api/v1/customers/find/${encodeURIComponent('erp/2026 #1 100%')}`).expect(200);
      expect(res.body.id).toBe(created.id);
    });

    it('matches the whole id, without wildcards', async () => {
      await createCustomer(t.app, t.company, { external_id: 'ERP-4711' });
      for (const key of ['ERP', 'ERP-471', 'ERP-47%25', 'ERP_4711', 'ERP-4711x']) {
        const res = await client.get(`/api/v1/customers/find/${key}`);
        expectProblem(res, 404);
      }
    });

    it('answers 404 with a problem document when nothing matches', async () => {
      const res = await client.get('/api/v1/customers/find/unknown');
      expectProblem(res, 404);
      expect(res.body.code).toBe('customer.not_found');
    });
  });

  describe('duplicate external_id', () => {
    it('is a 409 naming the existing id, compared case-insensitively, and stores nothing', async () => {
      const holder = await createCustomer(t.app, t.company, { external_id: 'ERP-4711' });
      for (const taken of ['ERP-4711', 'erp-4711', ' Erp-4711 ']) {
        const res = await create(customerParams({ external_id: taken }));
        expectProblem(res, 409);
        expect(res.body).toMatchObject({ code: 'customer.external_id_taken', existing_id: holder.id });
        expect(errorFields(res)).toEqual(['external_id']);
      }
      expect((await rowCounts(t.app)).customers).toBe(1);
    });

    it('is a 409 for a JSON body too', async () => {
      const holder = await createCustomer(t.app, t.company, { external_id: 'J-1' });
      const res = await client.postJson('/api/v1/customers', customerParams({ external_id: 'j-1' }));
      expectProblem(res, 409);
      expect(res.body.existing_id).toBe(holder.id);
    });

    it('lets exactly one of several concurrent creates with the same external_id win; the others get 409', async () => {
      const answers = await Promise.all(
        ['RACE-1', 'race-1', 'Race-1', 'RACE-1', 'rAce-1'].map((key) => create(customerParams({ external_id: key }))),
      );
      const created = answers.filter((res) => res.status === 201);
      expect(created).toHaveLength(1);
      for (const res of answers.filter((r) => r.status !== 201)) {
        expectProblem(res, 409);
        expect(res.body.existing_id).toBe(created[0].body.id);
      }
      expect((await rowCounts(t.app)).customers).toBe(1);
    });

    it('treats non-ASCII letters case-insensitively too', async () => {
      const holder = await createCustomer(t.app, t.company, { external_id: 'MÜLLER-Ä1' });
      const found = await client.get(`/api/v1/customers/find/${encodeURIComponent('müller-ä1')}`);
      expect(found.status).toBe(200);
      expect(found.body.id).toBe(holder.id);
      expectProblem(await create(customerParams({ external_id: 'müller-ä1' })), 409);
    });

    it('does not apply to customers without an external_id', async () => {
      await create(customerParams()).expect(201);
      await create(customerParams()).expect(201);
      await create(customerParams({ external_id: '' })).expect(201);
      const res = await create(customerParams({ external_id: '   ' })).expect(201);
      expect(res.body.external_id).toBeNull();
      expect((await rowCounts(t.app)).customers).toBe(4);
    });
  });

  describe('validation', () => {
    it('names every missing required parameter in one 422', async () => {
      const res = await create({});
      expectProblem(res, 422);
      expect(res.body.code).toBe('validation.failed');
      expect(errorFields(res).sort()).toEqual([...REQUIRED].sort());
      for (const error of res.body.errors) expect(error).toEqual({ field: expect.any(String), message: expect.any(String) });
      expect((await rowCounts(t.app)).customers).toBe(0);
    });

    it.each(REQUIRED)('refuses a request without %s, naming only that field', async (field) => {
      const body = customerParams();
      delete body[field];
      const res = await create(body);
      expectProblem(res, 422);
      // One message, not one per decorator ("required", "must be a string", "must be shorter than …").
      expect(res.body.errors).toEqual([{ field, message: `${field} is required` }]);
    });

    it.each(REQUIRED)('refuses a blank %s', async (field) => {
      const res = await create(customerParams({ [field]: '   ' }));
      expectProblem(res, 422);
      expect(new Set(errorFields(res))).toEqual(new Set([field]));
    });

    it.each([
      { field: 'shipping_mode', value: 'fax', label: '"fax"' },
      { field: 'shipping_mode', value: 'skip_shipping', label: '"skip_shipping" (invoice-only)' },
      { field: 'stop_automatic_reminders', value: 'maybe', label: '"maybe"' },
      { field: 'stop_automatic_reminders', value: '', label: 'empty' },
      { field: 'country_code', value: 'XX', label: '"XX"' },
      { field: 'country_code', value: 'DEU', label: '"DEU"' },
      { field: 'country_code', value: '4', label: '"4"' },
      { field: 'name', value: 'x'.repeat(256), label: '256 characters' },
      { field: 'zip', value: '1'.repeat(21), label: '21 characters' },
      { field: 'note', value: 'n'.repeat(5001), label: '5001 characters' },
    ])('refuses $field = $label with 422 naming the field', async ({ field, value }) => {
      const res = await create(customerParams({ [field]: value }));
      expectProblem(res, 422);
      expect(new Set(errorFields(res))).toEqual(new Set([field]));
      expect((await rowCounts(t.app)).customers).toBe(0);
    });

    // country_code: the spec leaves the format open; the service takes ISO 3166-1 alpha-2 (any case, stored in capitals).
    it.each([
      ['name', 255],
      ['address_line1', 255],
      ['address_line2', 255],
      ['address_line3', 255],
      ['address_line4', 255],
      ['zip', 20],
      ['city', 255],
      ['phone', 50],
      ['customer_number', 100],
      ['additional_number', 100],
      ['external_id', 255],
      ['customer_group_id', 255],
      ['note', 5000],
    ])('takes %s up to %i characters and refuses one more, naming the field', async (field, max) => {
      const longest = await create(customerParams({ [field]: 'ä'.repeat(max) })).expect(201);
      expect((await get(longest.body.id).expect(200)).body[field] ?? longest.body.address).toContain('ä'.repeat(max));
      const res = await create(customerParams({ [field]: 'ä'.repeat(max + 1) }));
      expectProblem(res, 422);
      expect(res.body.errors).toEqual([{ field, message: `${field} must be shorter than or equal to ${max} characters` }]);
      expect((await rowCounts(t.app)).customers).toBe(1);
    });

    it('refuses wrong JSON types, naming each field', async () => {
      const res = await client.postJson('/api/v1/customers', {
        ...customerParams(),
        name: 123,
        zip: ['10115'],
        stop_automatic_reminders: 'maybe',
        phone: { number: '1' },
        shipping_mode: 7,
      });
      expectProblem(res, 422);
      expect(new Set(errorFields(res))).toEqual(new Set(['name', 'zip', 'stop_automatic_reminders', 'phone', 'shipping_mode']));
    });

    it('refuses bracket-nested form values where text is expected', async () => {
      const res = await t.http
        .post('/api/v1/customers')
        .set('Authorization', t.company.auth)
        .type('form')
        .send('name[first]=Muster&address_line1=A&address_line3=B&zip=1&city=C&country_code=DE&note[]=a&note[]=b');
      expectProblem(res, 422);
      expect(new Set(errorFields(res))).toEqual(new Set(['name', 'note']));
    });

    it('answers malformed JSON with 400 and stores nothing', async () => {
      const res = await t.http
        .post('/api/v1/customers')
        .set('Authorization', t.company.auth)
        .set('Content-Type', 'application/json')
        .send('{"name": "Muster", "zip": ');
      expectProblem(res, 400);
      expect((await rowCounts(t.app)).customers).toBe(0);
      const created = await createCustomer(t.app, t.company);
      const patch = await t.http
        .patch(`/api/v1/customers/${created.id}`)
        .set('Authorization', t.company.auth)
        .set('Content-Type', 'application/json')
        .send('{name: unquoted}');
      expectProblem(patch, 400);
    });

    it.each(['text/plain', 'application/xml', 'text/csv'])('answers a %s body with 415 and stores nothing', async (type) => {
      const res = await t.http
        .post('/api/v1/customers')
        .set('Authorization', t.company.auth)
        .set('Content-Type', type)
        .send('name=Muster&address_line1=A&address_line3=B&zip=1&city=C&country_code=DE');
      expectProblem(res, 415);
      expect((await rowCounts(t.app)).customers).toBe(0);
      const created = await createCustomer(t.app, t.company);
      const patch = await t.http
        .patch(`/api/v1/customers/${created.id}`)
        .set('Authorization', t.company.auth)
        .set('Content-Type', type)
        .send('name=Nicht gespeichert');
      expectProblem(patch, 415);
      await get(created.id).expect(200, created);
    });

    it('answers a multipart/form-data body (which nothing here reads) with 415 naming the type, not a 422', async () => {
      const fields = { name: 'Muster', address_line1: 'Muster', address_line3: 'Weg 1', zip: '10115', city: 'Berlin', country_code: 'DE' };
      const multipart = (req: request.Test) =>
        Object.entries(fields).reduce((r, [k, v]) => r.field(k, v), req.set('Authorization', t.company.auth));
      const res = await multipart(t.http.post('/api/v1/customers'));
      expectProblem(res, 415);
      expect(res.body).toMatchObject({
        code: 'request.unsupported_media_type',
        detail: expect.stringContaining('not multipart/form-data'),
      });
      expect((await rowCounts(t.app)).customers).toBe(0);
      const created = await createCustomer(t.app, t.company);
      expectProblem(await multipart(t.http.patch(`/api/v1/customers/${created.id}`)), 415);
      await get(created.id).expect(200, created);
    });
  });
});
