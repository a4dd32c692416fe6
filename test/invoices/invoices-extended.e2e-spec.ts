// Create invoice (extended): nested customer[...] and contact[...] are created, or (matched by
// external_id) reused and updated, in the invoice's transaction; any failure stores nothing.
import {
  api as restApi,
  createContact,
  createCustomer,
  errorFields,
  expectProblem,
  fullCustomerParams,
  type Json,
} from '../support/factories.js';
import {
  type Fields,
  type InvoiceApi,
  invoiceApi,
  invoiceSuiteConfig,
  leftoverUploads,
  nestedContact,
  nestedCustomer,
  storedFiles,
  tableCounts,
} from '../support/invoice-factories.js';
import { makePdf } from '../support/pdf.js';
import { useTestApp } from '../support/use-test-app.js';

const config = invoiceSuiteConfig('extended');

/** customer[...] / contact[...] form names for plain parameters. */
const nest = (prefix: string, params: Record<string, unknown>): Fields =>
  Object.fromEntries(Object.entries(params).map(([key, value]) => [`${prefix}[${key}]`, String(value)]));

describe('invoice create (extended)', () => {
  let api: InvoiceApi;
  let rest: ReturnType<typeof restApi>;

  const t = useTestApp(config, { company: true });
  beforeEach(() => {
    api = invoiceApi(t.app, t.company);
    rest = restApi(t.app, t.company);
  });

  /** The refusal names `field` and leaves the tables and the store as they were. */
  async function expectRefused(fields: Fields, status: number, field: string): Promise<Json> {
    const counts = await tableCounts(t.app);
    const files = await storedFiles(t.company);
    const res = await api.create(fields, { invoice_attachment: await makePdf('Anlage') });
    expectProblem(res, status);
    expect(errorFields(res)).toContain(field);
    expect(await tableCounts(t.app)).toEqual(counts);
    expect(await storedFiles(t.company)).toEqual(files);
    expect(await leftoverUploads(config)).toEqual([]);
    return res.body;
  }

  describe('new records', () => {
    it('creates the customer with every nested parameter and the contact in one request', async () => {
      const customerParams = fullCustomerParams({ external_id: 'ERP-4711' });
      const contactParams = {
        name: 'Erika Mustermann',
        phone: '+49 40 99',
        gender: '2',
        salutation: '0',
        email: 'erika@muster.de',
        external_id: 'P-1',
      };
      const invoice = await api.createOk({ ...nest('customer', customerParams), ...nest('contact', contactParams), total: '119' });
      expect(await tableCounts(t.app)).toMatchObject({ invoices: 1, customers: 1, contacts: 1 });

      const customer = (await rest.get(`/api/v1/customers/${invoice.customer.id}`).expect(200)).body;
      expect(customer).toMatchObject({
        external_id: 'ERP-4711',
        customer_number: 'K-10001',
        additional_number: 'A-77',
        name: 'Muster GmbH',
        phone: '+49 30 1234567',
        address: 'Muster GmbH\nz. Hd. Erika Mustermann\nMusterstraße 1\nHinterhaus\n10115 Berlin\nDE',
        stop_automatic_reminders: true,
        shipping_mode: 'dual_shipping',
        customer_group_id: 'grp-b2b',
        note: 'Zahlt immer pünktlich',
      });
      expect(customer.contacts.map((c: { id: string }) => c.id)).toEqual([invoice.contact.id]);
      const contact = (await rest.get(`/api/v1/contacts/${invoice.contact.id}`).expect(200)).body.contact;
      expect(contact).toMatchObject({
        name: 'Erika Mustermann',
        phone: '+49 40 99',
        gender: 2,
        salutation: 0,
        email: 'erika@muster.de',
        external_id: 'P-1',
      });
      expect(contact.customer.id).toBe(customer.id);
      // The invoice shows the same records, reduced.
      expect(invoice.customer).toEqual({
        id: customer.id,
        external_id: customer.external_id,
        name: customer.name,
        customer_number: customer.customer_number,
        address: customer.address,
        created_at: customer.created_at,
        updated_at: customer.updated_at,
      });
      expect(invoice.contact).toMatchObject({ id: contact.id, name: contact.name, email: contact.email });
    });

    it('creates a new contact for a customer given by customer_id', async () => {
      const customer = await createCustomer(t.app, t.company);
      const invoice = await api.createOk({ customer_id: customer.id, ...nestedContact({ 'contact[name]': 'Neuer Kontakt' }) });
      expect(invoice.customer.id).toBe(customer.id);
      expect(invoice.contact.name).toBe('Neuer Kontakt');
      const contact = (await rest.get(`/api/v1/contacts/${invoice.contact.id}`).expect(200)).body.contact;
      expect(contact.customer.id).toBe(customer.id);
    });

    it('lets several invoices for the same new customer and contact arrive at once: all created, one customer, one contact', async () => {
      const fields = {
        ...nestedCustomer({ 'customer[external_id]': 'K-PARALLEL' }),
        ...nestedContact({ 'contact[external_id]': 'P-PARALLEL' }),
        total: '5',
      };
      const answers = await Promise.all(Array.from({ length: 6 }, () => api.create(fields)));
      expect(answers.map((res) => res.status)).toEqual(Array(6).fill(201));
      expect(new Set(answers.map((res) => res.body.invoice.customer.id)).size).toBe(1);
      expect(new Set(answers.map((res) => res.body.invoice.contact.id)).size).toBe(1);
      expect(await tableCounts(t.app)).toMatchObject({ invoices: 6, customers: 1, contacts: 1 });
      expect(await storedFiles(t.company)).toHaveLength(6);
    });
  });

  describe('reuse by external_id', () => {
    it('uses the customer with this customer[external_id] (any case) and updates the fields sent, keeping the others', async () => {
      const existing = await createCustomer(t.app, t.company, { external_id: 'ERP-1', name: 'Alt GmbH', phone: '030 1', note: 'bleibt' });
      const invoice = await api.createOk({
        'customer[external_id]': 'ERP-1',
        'customer[name]': 'Neu GmbH',
        'customer[phone]': '040 2',
        total: '1',
      });
      expect(invoice.customer.id).toBe(existing.id);
      const second = await api.createOk({ 'customer[external_id]': 'erp-1', total: '2' });
      expect(second.customer.id).toBe(existing.id);
      expect(await tableCounts(t.app)).toMatchObject({ customers: 1, invoices: 2 });
      const customer = (await rest.get(`/api/v1/customers/${existing.id}`).expect(200)).body;
      expect(customer).toMatchObject({
        name: 'Neu GmbH',
        phone: '040 2',
        note: 'bleibt',
        address: existing.address,
        customer_number: existing.customer_number,
      });
      expect(customer.updated_at >= existing.updated_at).toBe(true);
    });

    it('uses the contact with this contact[external_id] and updates it; an unknown one is created', async () => {
      const customer = await createCustomer(t.app, t.company, { external_id: 'ERP-1' });
      const contact = await createContact(t.app, t.company, customer.id, { external_id: 'P-1', name: 'Erika Alt', email: 'alt@kunde.de' });
      const invoice = await api.createOk({
        'customer[external_id]': 'ERP-1',
        'contact[external_id]': 'p-1',
        'contact[email]': 'neu@kunde.de',
      });
      expect(invoice.contact).toMatchObject({ id: contact.id, name: 'Erika Alt', email: 'neu@kunde.de' });
      expect(await tableCounts(t.app)).toMatchObject({ contacts: 1 });
      const created = await api.createOk({ customer_id: customer.id, ...nestedContact({ 'contact[external_id]': 'P-2' }) });
      expect(created.contact.id).not.toBe(contact.id);
      expect(await tableCounts(t.app)).toMatchObject({ contacts: 2 });
    });

    it('refuses a contact[external_id] that belongs to another customer (422), storing nothing', async () => {
      const owner = await createCustomer(t.app, t.company);
      const contact = await createContact(t.app, t.company, owner.id, { external_id: 'P-OTHER' });
      await expectRefused(
        { ...nestedCustomer({ 'customer[external_id]': 'K-NEW' }), 'contact[external_id]': 'P-OTHER' },
        422,
        'contact[external_id]',
      );
      expect((await rest.get(`/api/v1/contacts/${contact.id}`).expect(200)).body.contact.customer.id).toBe(owner.id);
      await rest.get('/api/v1/customers/find/K-NEW').expect(404);
    });
  });

  describe('rollback', () => {
    it('a taken invoice external_id is a 409 naming it and the existing invoice; the new customer, contact and files are gone', async () => {
      const customer = await createCustomer(t.app, t.company);
      const first = await api.createOk({ customer_id: customer.id, external_id: 'RE-2026-1' });
      const body = await expectRefused(
        {
          ...nestedCustomer({ 'customer[external_id]': 'K-ORPHAN' }),
          ...nestedContact({ 'contact[external_id]': 'P-ORPHAN' }),
          external_id: 're-2026-1',
        },
        409,
        'external_id',
      );
      expect(body.existing_id).toBe(first.id);
      await rest.get('/api/v1/customers/find/K-ORPHAN').expect(404);
      await rest.get('/api/v1/contacts/find/P-ORPHAN').expect(404);
      expect(await storedFiles(t.company)).toEqual([`invoices/${first.id.slice(4)}/invoice.pdf`]);
    });

    it('undoes the update of a reused customer and contact when the invoice fails', async () => {
      const customer = await createCustomer(t.app, t.company, { external_id: 'ERP-1', name: 'Alt GmbH' });
      const contact = await createContact(t.app, t.company, customer.id, { external_id: 'P-1', name: 'Alt Kontakt' });
      await api.createOk({ customer_id: customer.id, external_id: 'RE-1' });
      await expectRefused(
        {
          'customer[external_id]': 'ERP-1',
          'customer[name]': 'Neu GmbH',
          'contact[external_id]': 'P-1',
          'contact[name]': 'Neu Kontakt',
          external_id: 'RE-1',
        },
        409,
        'external_id',
      );
      const after = (await rest.get(`/api/v1/customers/${customer.id}`).expect(200)).body;
      expect(after).toEqual({ ...customer, contacts: after.contacts });
      await rest.get(`/api/v1/contacts/${contact.id}`).expect(200, { contact });
    });

    it('a contact that fails after the new customer was inserted leaves no customer behind', async () => {
      await expectRefused(
        { ...nestedCustomer({ 'customer[external_id]': 'K-X' }), 'contact[name]': 'Ohne Geschlecht' },
        422,
        'contact[gender]',
      );
      await rest.get('/api/v1/customers/find/K-X').expect(404);
    });
  });

  describe('references and required fields', () => {
    it('refuses a contact_id of another customer with 422 naming contact_id', async () => {
      const customer = await createCustomer(t.app, t.company);
      const other = await createCustomer(t.app, t.company);
      const foreign = await createContact(t.app, t.company, other.id);
      await expectRefused({ customer_id: customer.id, contact_id: foreign.id }, 422, 'contact_id');
      await expectRefused({ ...nestedCustomer(), contact_id: foreign.id }, 422, 'contact_id');
    });

    it('refuses customer_id together with customer[...] and contact_id together with contact[...]', async () => {
      const customer = await createCustomer(t.app, t.company);
      const contact = await createContact(t.app, t.company, customer.id);
      await expectRefused({ customer_id: customer.id, ...nestedCustomer() }, 422, 'customer_id');
      await expectRefused({ customer_id: customer.id, contact_id: contact.id, ...nestedContact() }, 422, 'contact_id');
    });

    it('refuses an invoice without any customer, and unknown or malformed ids, naming the field', async () => {
      await expectRefused({ total: '1' }, 422, 'customer_id');
      await expectRefused({ customer_id: 'cus-00000000-0000-4000-8000-000000000000' }, 422, 'customer_id');
      await expectRefused({ customer_id: 'K-1' }, 422, 'customer_id');
      const customer = await createCustomer(t.app, t.company);
      await expectRefused({ customer_id: customer.id, contact_id: 'con-00000000-0000-4000-8000-000000000000' }, 422, 'contact_id');
      await expectRefused({ customer_id: customer.id, contact_id: customer.id }, 422, 'contact_id');
    });

    it('names every missing required parameter of a new customer and of a new contact', async () => {
      const customer = await expectRefused({ 'customer[phone]': '030 1', 'customer[external_id]': 'K-NEU' }, 422, 'customer[name]');
      expect(customer.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'customer[address_line1]',
        'customer[address_line3]',
        'customer[city]',
        'customer[country_code]',
        'customer[name]',
        'customer[zip]',
      ]);
      const existing = await createCustomer(t.app, t.company);
      const contact = await expectRefused({ customer_id: existing.id, 'contact[email]': 'a@b.de' }, 422, 'contact[name]');
      expect(contact.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'contact[gender]',
        'contact[name]',
        'contact[salutation]',
      ]);
    });

    it('validates nested values like the customer and contact resources do, with bracket names', async () => {
      const res = await expectRefused(
        {
          ...nestedCustomer({
            'customer[country_code]': 'XX',
            'customer[shipping_mode]': 'fax',
            'customer[stop_automatic_reminders]': 'vielleicht',
          }),
          ...nestedContact({ 'contact[gender]': '7', 'contact[salutation]': 'du', 'contact[email]': 'keine-adresse' }),
        },
        422,
        'customer[country_code]',
      );
      expect(new Set(res.errors.map((e: { field: string }) => e.field))).toEqual(
        new Set([
          'customer[country_code]',
          'customer[shipping_mode]',
          'customer[stop_automatic_reminders]',
          'contact[gender]',
          'contact[salutation]',
          'contact[email]',
        ]),
      );
    });

    it('refuses clearing a required field of a reused customer', async () => {
      const customer = await createCustomer(t.app, t.company, { external_id: 'ERP-1' });
      await expectRefused({ 'customer[external_id]': 'ERP-1', 'customer[name]': '' }, 422, 'customer[name]');
      await rest.get(`/api/v1/customers/${customer.id}`).expect(200);
    });
  });
});
