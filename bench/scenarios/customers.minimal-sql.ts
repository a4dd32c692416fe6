// The statements of the customers' minimal server (customers.minimal-server.ts): GET by id, a page in
// two forms (contacts by a correlated subquery on the cut page, or one join with grouping), the count.
import { epoch } from '../support/minimal-server.js';

export type PageVariant = 'correlated' | 'join';

const CUSTOMER = `c.id, c.external_id, c.customer_number, c.additional_number, c.name, c.phone, c.address_line1, c.address_line2,
  c.address_line3, c.address_line4, c.zip, c.city, c.country_code, c.stop_automatic_reminders, c.shipping_mode, c.customer_group_id,
  c.note, c.customer_type, ${epoch('c.created_at')} AS created, ${epoch('c.updated_at')} AS updated`;
const CONTACT = `json_build_array(k.id, k.external_id, k.name, k.phone, k.gender, k.salutation, k.email, ${epoch('k.created_at')}, ${epoch('k.updated_at')})`;
const CONTACTS_OF_C = `(SELECT coalesce(json_agg(${CONTACT} ORDER BY k.created_at, k.id), '[]')
    FROM contacts k WHERE k.company_id = c.company_id AND k.customer_id = c.id) AS contacts`;

export const GET = {
  name: 'minimal.customer',
  text: `SELECT ${CUSTOMER}, ${CONTACTS_OF_C} FROM customers c WHERE c.company_id = $1 AND c.id = $2`,
};

/** The count only when the page is full: then the page cannot tell the total. */
const TOTAL = `CASE WHEN (SELECT count(*) FROM cut) = $2 THEN (SELECT count(*) FROM customers WHERE company_id = $1) END AS total`;
const CUT = 'cut AS (SELECT * FROM customers WHERE company_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3)';
export const PAGE: Record<PageVariant, { name: string; text: string }> = {
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
export const COUNT = { name: 'minimal.customers_count', text: 'SELECT count(*) AS total FROM customers WHERE company_id = $1' };

export type ContactRow = [string, string | null, string, string | null, number, number, string | null, number, number];
export interface CustomerRow {
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

/** A timestamptz as the wire's datetime in the zone `tz` (a parameter): local time, then its UTC offset. */
function isoIn(x: string, tz: string): string {
  const offset = `(${x} AT TIME ZONE ${tz} - ${x} AT TIME ZONE 'UTC')`;
  return `to_char(${x} AT TIME ZONE ${tz}, 'YYYY-MM-DD"T"HH24:MI:SS') ||
    CASE WHEN ${offset} < interval '0' THEN '-' || to_char(-${offset}, 'HH24:MI') ELSE '+' || to_char(${offset}, 'HH24:MI') END`;
}

const line = (text: string) => `nullif(btrim(${text}), '')`;
const ADDRESS_SQL = `concat_ws(E'\\n', ${['c.address_line1', 'c.address_line2', 'c.address_line3', 'c.address_line4', "concat_ws(' ', nullif(c.zip, ''), nullif(c.city, ''))", 'c.country_code::text'].map(line).join(', ')})`;

/**
 * GET by id with the whole body built by PostgreSQL (row_to_json writes compact JSON in the columns'
 * order): $1 company, $2 customer, $3 the company's time zone, $4 the public URL. Measured against the
 * body built in JS (README, issue 21).
 */
export const GET_JSON = {
  name: 'minimal.customer_json',
  text: `SELECT row_to_json(w)::text AS body FROM (
    SELECT 'cus-' || c.id AS id, c.external_id, c.customer_number, c.additional_number, $4::text || '/customers/cus-' || c.id AS service_url,
           c.name, c.phone, ${ADDRESS_SQL} AS address, c.stop_automatic_reminders, c.shipping_mode, c.customer_group_id, c.note,
           c.customer_type, ${isoIn('c.created_at', '$3')} AS created_at, ${isoIn('c.updated_at', '$3')} AS updated_at,
           (SELECT coalesce('[' || string_agg(row_to_json(kc)::text, ',' ORDER BY k.created_at, k.id) || ']', '[]')::json
              FROM contacts k CROSS JOIN LATERAL (
                SELECT 'con-' || k.id AS id, k.external_id, k.name, k.phone, k.gender, k.salutation, k.email,
                       ${isoIn('k.created_at', '$3')} AS created_at, ${isoIn('k.updated_at', '$3')} AS updated_at) kc
             WHERE k.company_id = c.company_id AND k.customer_id = c.id) AS contacts
      FROM customers c WHERE c.company_id = $1 AND c.id = $2) w`,
};
