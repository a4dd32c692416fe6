// Child process entry: the minimal server of issue 21 for the customer reads — the least work that
// answers the service's bytes. GET by id: one named statement, the customer with its contacts as
// json_agg, the JSON built in JS. A page: one named statement that cuts the page first (ORDER BY / LIMIT /
// OFFSET in a subquery), joins the contacts of the page's rows only and groups them, and counts the
// company's customers only when the page is full (a CASE around the count: PostgreSQL runs that
// subquery only when it is reached). The other forms (contacts by a correlated subquery on the cut page,
// the whole body built as JSON by PostgreSQL) were slower: `npm run bench -- customers-minimal-variants`.
import type pg from 'pg';
import {
  type Answer,
  type Company,
  type MinimalServerOptions,
  pageMetaJson,
  pageOf,
  serveMinimal,
  wireAddress,
  wireDateTime,
} from '../support/minimal-server.js';
import { COUNT, type CustomerRow, GET, GET_JSON, PAGE, type PageVariant } from './customers.minimal-sql.js';

export interface CustomersMinimalOptions extends MinimalServerOptions {
  pageVariant?: PageVariant;
  /** Where GET by id builds its JSON: in JS from the row (default), or the whole body in SQL. */
  json?: 'js' | 'sql';
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

serveMinimal((pool: pg.Pool, { publicUrl, pageVariant = 'join', json = 'js' }: CustomersMinimalOptions) => {
  async function get(company: Company, publicId: string): Promise<Answer> {
    const id = UUID.exec(publicId)?.[1].toLowerCase();
    if (id && json === 'sql') {
      const { rows: built } = await pool.query<{ body: string }>({ ...GET_JSON, values: [company.id, id, company.timeZone, publicUrl] });
      return built.length === 0 ? [404, '{"title":"not found"}'] : [200, built[0].body];
    }
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
