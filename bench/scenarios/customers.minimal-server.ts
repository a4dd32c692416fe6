// Child process entry: the minimal server of issue 21 for the customer reads — the least work that
// answers the service's bytes. GET by id: one named statement, the customer with its contacts as
// json_agg. A page: one named statement that cuts the page first (ORDER BY / LIMIT / OFFSET in a
// subquery), reads the contacts of the page's rows only, and counts the company's customers only when
// the page is full (a CASE around the count: PostgreSQL runs that subquery only when it is reached).
import type pg from 'pg';
import {
  type Answer,
  type Company,
  epoch,
  type MinimalServerOptions,
  pageMetaJson,
  pageOf,
  serveMinimal,
  wireAddress,
  wireDateTime,
} from '../support/minimal-server.js';

export interface CustomersMinimalOptions extends MinimalServerOptions {
  pageVariant?: PageVariant;
}

export type PageVariant = 'correlated' | 'join';

const CUSTOMER = `c.id, c.external_id, c.customer_number, c.additional_number, c.name, c.phone, c.address_line1, c.address_line2,
  c.address_line3, c.address_line4, c.zip, c.city, c.country_code, c.stop_automatic_reminders, c.shipping_mode, c.customer_group_id,
  c.note, c.customer_type, ${epoch('c.created_at')} AS created, ${epoch('c.updated_at')} AS updated`;
const CONTACT = `json_build_array(k.id, k.external_id, k.name, k.phone, k.gender, k.salutation, k.email, ${epoch('k.created_at')}, ${epoch('k.updated_at')})`;
const CONTACTS_OF_C = `(SELECT coalesce(json_agg(${CONTACT} ORDER BY k.created_at, k.id), '[]')
    FROM contacts k WHERE k.company_id = c.company_id AND k.customer_id = c.id) AS contacts`;

const GET = {
  name: 'minimal.customer',
  text: `SELECT ${CUSTOMER}, ${CONTACTS_OF_C} FROM customers c WHERE c.company_id = $1 AND c.id = $2`,
};

/** The count only when the page is full: then the page cannot tell the total. */
const TOTAL = `CASE WHEN (SELECT count(*) FROM cut) = $2 THEN (SELECT count(*) FROM customers WHERE company_id = $1) END AS total`;
const CUT = 'cut AS (SELECT * FROM customers WHERE company_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3)';
const PAGE: Record<PageVariant, { name: string; text: string }> = {
  correlated: {
    name: 'minimal.customers_page',
    text: `WITH ${CUT} SELECT ${CUSTOMER}, ${CONTACTS_OF_C}, ${TOTAL} FROM cut c ORDER BY c.created_at, c.id`,
  },
  join: {
    name: 'minimal.customers_page_join',
    text: `WITH ${CUT}
      SELECT ${CUSTOMER}, coalesce(json_agg(${CONTACT} ORDER BY k.created_at, k.id) FILTER (WHERE k.id IS NOT NULL), '[]') AS contacts, ${TOTAL}
        FROM cut c LEFT JOIN contacts k ON k.company_id = c.company_id AND k.customer_id = c.id
       GROUP BY c.company_id, c.id, c.external_id, c.customer_number, c.additional_number, c.name, c.phone, c.address_line1, c.address_line2,
                c.address_line3, c.address_line4, c.zip, c.city, c.country_code, c.stop_automatic_reminders, c.shipping_mode,
                c.customer_group_id, c.note, c.customer_type, c.created_at, c.updated_at
       ORDER BY c.created_at, c.id`,
  },
};
const COUNT = { name: 'minimal.customers_count', text: 'SELECT count(*) AS total FROM customers WHERE company_id = $1' };

type ContactRow = [string, string | null, string, string | null, number, number, string | null, number, number];
interface CustomerRow {
  id: string;
  external_id: string | null;
  customer_number: string | null;
  additional_number: string | null;
  name: string;
  phone: string | null;
  address_line1: string;
  address_line2: string | null;
  address_line3: string;
  address_line4: string | null;
  zip: string;
  city: string;
  country_code: string;
  stop_automatic_reminders: boolean;
  shipping_mode: string | null;
  customer_group_id: string | null;
  note: string | null;
  customer_type: string;
  created: number;
  updated: number;
  contacts: ContactRow[];
  total?: string | null;
}

function customerWire(c: CustomerRow, tz: string, publicUrl: string): object {
  const id = `cus-${c.id}`;
  return {
    id,
    external_id: c.external_id,
    customer_number: c.customer_number,
    additional_number: c.additional_number,
    service_url: `${publicUrl}/customers/${id}`,
    name: c.name,
    phone: c.phone,
    address: wireAddress(c),
    stop_automatic_reminders: c.stop_automatic_reminders,
    shipping_mode: c.shipping_mode,
    customer_group_id: c.customer_group_id,
    note: c.note,
    customer_type: c.customer_type,
    created_at: wireDateTime(c.created, tz),
    updated_at: wireDateTime(c.updated, tz),
    contacts: c.contacts.map(([kid, externalId, name, phone, gender, salutation, email, created, updated]) => ({
      id: `con-${kid}`,
      external_id: externalId,
      name,
      phone,
      gender,
      salutation,
      email,
      created_at: wireDateTime(created, tz),
      updated_at: wireDateTime(updated, tz),
    })),
  };
}

const UUID = /^cus-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

serveMinimal((pool: pg.Pool, { publicUrl, pageVariant = 'correlated' }: CustomersMinimalOptions) => {
  async function get(company: Company, publicId: string): Promise<Answer> {
    const id = UUID.exec(publicId)?.[1].toLowerCase();
    const { rows } = id ? await pool.query<CustomerRow>({ ...GET, values: [company.id, id] }) : { rows: [] };
    if (rows.length === 0) return [404, '{"title":"not found"}'];
    return [200, JSON.stringify(customerWire(rows[0], company.timeZone, publicUrl))];
  }

  async function list(company: Company, query: URLSearchParams): Promise<Answer> {
    const page = pageOf(query);
    if (!page) return [400, '{"title":"bad page"}'];
    const { rows } = await pool.query<CustomerRow>({ ...PAGE[pageVariant], values: [company.id, page.perPage, page.offset] });
    let total = rows.length === page.perPage ? Number(rows[0].total) : page.offset + rows.length;
    // Past the end: the page tells nothing, so count.
    if (rows.length === 0 && page.offset > 0)
      total = Number((await pool.query<{ total: string }>({ ...COUNT, values: [company.id] })).rows[0].total);
    const customers = rows.map((c) => customerWire(c, company.timeZone, publicUrl));
    return [200, `{"customers":${JSON.stringify(customers)},"meta":${pageMetaJson(page.page, page.perPage, total)}}`];
  }

  return (company, path, query) => {
    if (path === '/api/v1/customers') return list(company, query);
    if (path.startsWith('/api/v1/customers/')) return get(company, decodeURIComponent(path.slice('/api/v1/customers/'.length)));
    return undefined;
  };
});
