// Child process entry: the minimal server of issue 21 for the invoice reads — the least work that answers
// the service's bytes. GET by id: one named statement, the invoice with its customer and contact
// (joined), its payments and reminders (json_agg) and its interest state, computed in SQL exactly as the
// service's `interest.state` statement does (the same fragments of src/invoices/interest/interest.sql.ts;
// today in the company's zone from the cached token's company instead of a subquery). A page: one named
// statement that cuts the page first and reads all of that for the page's rows only (correlated
// subqueries on the cut page: cheaper than grouping payments and reminders once and joining them,
// `npm run bench -- invoices-read-minimal-variants`), with the count only when the page is full.
import type pg from 'pg';
import { INVOICE_STATUSES } from '../../src/invoices/invoice-status.js';
import { DEFAULT_SINCE, INTEREST_SINCE, interestLinesSql, NEXT_INTEREST_DAY } from '../../src/invoices/interest/interest.sql.js';
import {
  addressColumns,
  type AddressColumns,
  type Answer,
  type Company,
  epoch,
  type MinimalServerOptions,
  pageMetaJson,
  pageOf,
  serveMinimal,
  wireAddress,
  wireDateTime,
  wireDecimal,
} from '../support/minimal-server.js';

const INVOICE = `i.id, i.external_id, i.status, i.invoice_number, i.attachment_key IS NOT NULL AS has_attachment,
  i.pdf_active_content OR i.attachment_active_content AS active_content, i.additional_number,
  (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.original_total::text AS original_total,
  i.reminder_fees::text AS reminder_fees, i.default_interest::text AS default_interest, i.flat_fee::text AS flat_fee,
  i.waived_amount::text AS waived_amount, i.open_amount::text AS open_amount, i.order_date::text AS order_date,
  i.invoice_date::text AS invoice_date, i.due_date::text AS due_date, i.time_for_payment, i.source, i.shipping_mode,
  ${epoch('i.written_off_at')} AS written_off, i.ignore_reminder_fees, i.dunning_block_reason, i.dunning_block_until::text AS block_until,
  ${epoch('i.created_at')} AS created, ${epoch('i.updated_at')} AS updated`;
const CUSTOMER = `c.id AS cu_id, c.external_id AS cu_external_id, c.name AS cu_name, c.customer_number AS cu_number, ${addressColumns('c')},
  ${epoch('c.created_at')} AS cu_created, ${epoch('c.updated_at')} AS cu_updated`;
const CONTACT = `k.id AS co_id, k.external_id AS co_external_id, k.name AS co_name, k.gender AS co_gender, k.salutation AS co_salutation,
  k.email AS co_email, ${epoch('k.created_at')} AS co_created, ${epoch('k.updated_at')} AS co_updated`;
const PAYMENTS = `(SELECT coalesce(json_agg(json_build_array(p.id, p.external_id, p.amount::text, p.payment_date::text, p.note, p.source,
    p.inkasso_payment, ${epoch('p.created_at')}, ${epoch('p.updated_at')}) ORDER BY p.created_at, p.id), '[]')
    FROM payments p WHERE p.company_id = i.company_id AND p.invoice_id = i.id) AS payments`;
const REMINDERS = `(SELECT coalesce(json_agg(json_build_array(r.id, r.reminder_stage, r.reminder_date::text, ${epoch('r.last_sent_at')},
    r.shipping_mode, r.fees::text, r.default_interest::text, r.flat_fee::text, r.interest_from::text, r.interest_until::text,
    r.interest_points::text) ORDER BY r.reminder_stage), '[]')
    FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id) AS reminders`;
/** interest.state's two columns; `tz` is the parameter holding the company's time zone. */
const INTEREST = `CASE WHEN s.since <= t.today THEN to_char(s.since, 'YYYY-MM-DD') END AS default_since,
  coalesce((SELECT sum(l.amount) FROM ${interestLinesSql(INTEREST_SINCE, 's.next_day', 't.today')} l
             WHERE s.next_day <= t.today AND i.open_amount > 0), 0)::text AS accrued`;
const FROM = (invoices: string, tz: string) => `${invoices}
  JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
  LEFT JOIN contacts k ON k.company_id = i.company_id AND k.id = i.contact_id
  CROSS JOIN LATERAL (SELECT (now() AT TIME ZONE ${tz})::date AS today) t
  CROSS JOIN LATERAL (SELECT ${DEFAULT_SINCE} AS since, ${NEXT_INTEREST_DAY} AS next_day) s`;
const SELECT = `${INVOICE}, ${CUSTOMER}, ${CONTACT}, ${PAYMENTS}, ${REMINDERS}, ${INTEREST}`;

const GET = {
  name: 'minimal.invoice',
  text: `SELECT ${SELECT} FROM ${FROM('invoices i', '$3')} WHERE i.company_id = $1 AND i.id = $2`,
};
export type InvoicePageVariant = 'correlated' | 'join';

/** The page's payments and reminders grouped once for the cut's ids, joined to its rows. */
const GROUPED = (company: string) => `pay AS (
    SELECT p.invoice_id, json_agg(json_build_array(p.id, p.external_id, p.amount::text, p.payment_date::text, p.note, p.source,
           p.inkasso_payment, ${epoch('p.created_at')}, ${epoch('p.updated_at')}) ORDER BY p.created_at, p.id) AS payments
      FROM payments p WHERE p.company_id = ${company} AND p.invoice_id IN (SELECT id FROM cut) GROUP BY p.invoice_id),
  rem AS (
    SELECT r.invoice_id, json_agg(json_build_array(r.id, r.reminder_stage, r.reminder_date::text, ${epoch('r.last_sent_at')},
           r.shipping_mode, r.fees::text, r.default_interest::text, r.flat_fee::text, r.interest_from::text, r.interest_until::text,
           r.interest_points::text) ORDER BY r.reminder_stage) AS reminders
      FROM reminders r WHERE r.company_id = ${company} AND r.invoice_id IN (SELECT id FROM cut) GROUP BY r.invoice_id)`;

/** A page with or without the status filter: $1 company, $2 status (if any), then limit, offset, time zone. */
function pageStatement(status: boolean, variant: InvoicePageVariant): { name: string; text: string } {
  const where = status ? 'company_id = $1 AND status = $2' : 'company_id = $1';
  const [limit, offset, tz] = status ? ['$3', '$4', '$5'] : ['$2', '$3', '$4'];
  const cut = `cut AS (SELECT * FROM invoices WHERE ${where} ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset})`;
  const counted = `CASE WHEN (SELECT count(*) FROM cut) = ${limit} THEN (SELECT count(*) FROM invoices WHERE ${where}) END AS counted`;
  const name = `minimal.invoices_page${status ? '_status' : ''}${variant === 'join' ? '_join' : ''}`;
  if (variant === 'correlated')
    return { name, text: `WITH ${cut} SELECT ${SELECT}, ${counted} FROM ${FROM('cut i', tz)} ORDER BY i.created_at, i.id` };
  return {
    name,
    text: `WITH ${cut}, ${GROUPED('$1')}
      SELECT ${INVOICE}, ${CUSTOMER}, ${CONTACT}, coalesce(pay.payments, '[]') AS payments, coalesce(rem.reminders, '[]') AS reminders,
             ${INTEREST}, ${counted}
        FROM ${FROM('cut i LEFT JOIN pay ON pay.invoice_id = i.id LEFT JOIN rem ON rem.invoice_id = i.id', tz)}
       ORDER BY i.created_at, i.id`,
  };
}
const PAGES = (variant: InvoicePageVariant) => ({ status: pageStatement(true, variant), all: pageStatement(false, variant) });
const STATUSES = new Set<string>(INVOICE_STATUSES);

type PaymentRow = [string, string | null, string, string, string | null, string, boolean, number, number];
type ReminderRow = [
  string,
  number,
  string,
  number | null,
  string | null,
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
];
interface InvoiceRow extends AddressColumns {
  [column: string]: unknown;
  payments: PaymentRow[];
  reminders: ReminderRow[];
}

function reminderWire([id, stage, date, sent, shipping, fees, interest, flat, from, until, points]: ReminderRow, tz: string): object {
  const lines: object[] = [{ kind: 'fee', amount: wireDecimal(fees) }];
  if (from)
    lines.push({
      kind: 'default_interest',
      amount: wireDecimal(interest),
      from,
      until,
      points_above_base_rate: wireDecimal(points ?? '0'),
    });
  if (Number(flat) > 0) lines.push({ kind: 'flat_fee', amount: wireDecimal(flat) });
  return {
    id: `rem-${id}`,
    reminder_stage: stage,
    reminder_date: date,
    last_sent_at: wireDateTime(sent, tz),
    shipping_mode: shipping,
    fees: wireDecimal(fees),
    default_interest: wireDecimal(interest),
    flat_fee: wireDecimal(flat),
    lines,
  };
}

function invoiceWire(r: InvoiceRow, tz: string, publicUrl: string): object {
  const id = `inv-${r.id as string}`;
  const s = (column: string) => r[column] as string;
  return {
    id,
    external_id: r.external_id,
    invoice_status: r.status,
    invoice_number: r.invoice_number,
    service_url: `${publicUrl}/invoices/${id}`,
    invoice_attachment: r.has_attachment ? `${publicUrl}/api/v1/invoices/${id}/attachment` : null,
    pdf_active_content: r.active_content,
    additional_number: r.additional_number,
    total: wireDecimal(s('total')),
    original_total: wireDecimal(s('original_total')),
    reminder_fees: wireDecimal(s('reminder_fees')),
    default_interest: wireDecimal(s('default_interest')),
    accrued_interest: wireDecimal(s('accrued')),
    default_since: r.default_since,
    flat_fee: wireDecimal(s('flat_fee')),
    waived_amount: wireDecimal(s('waived_amount')),
    open_amount: wireDecimal(s('open_amount')),
    order_date: r.order_date,
    invoice_date: r.invoice_date,
    due_date: r.due_date,
    time_for_payment: r.time_for_payment,
    source: r.source,
    shipping_mode: r.shipping_mode,
    written_off_at: wireDateTime(r.written_off as number | null, tz),
    ignore_reminder_fees: r.ignore_reminder_fees,
    dunning_block: r.dunning_block_reason ? { reason: r.dunning_block_reason, until: r.block_until } : null,
    created_at: wireDateTime(r.created as number, tz),
    updated_at: wireDateTime(r.updated as number, tz),
    customer: {
      id: `cus-${s('cu_id')}`,
      external_id: r.cu_external_id,
      name: r.cu_name,
      customer_number: r.cu_number,
      address: wireAddress(r),
      created_at: wireDateTime(r.cu_created as number, tz),
      updated_at: wireDateTime(r.cu_updated as number, tz),
    },
    contact: r.co_id
      ? {
          id: `con-${s('co_id')}`,
          external_id: r.co_external_id,
          name: r.co_name,
          gender: r.co_gender,
          salutation: r.co_salutation,
          email: r.co_email,
          created_at: wireDateTime(r.co_created as number, tz),
          updated_at: wireDateTime(r.co_updated as number, tz),
        }
      : null,
    payments: r.payments.map(([pid, externalId, amount, date, note, source, inkasso, created, updated]) => ({
      id: `pay-${pid}`,
      external_id: externalId,
      amount: wireDecimal(amount),
      payment_date: date,
      note,
      source,
      inkasso_payment: String(inkasso),
      created_at: wireDateTime(created, tz),
      updated_at: wireDateTime(updated, tz),
    })),
    reminders: r.reminders.map((reminder) => reminderWire(reminder, tz)),
  };
}

const UUID = /^inv-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

export interface InvoicesMinimalOptions extends MinimalServerOptions {
  pageVariant?: InvoicePageVariant;
}

serveMinimal((pool: pg.Pool, { publicUrl, pageVariant = 'correlated' }: InvoicesMinimalOptions) => {
  const PAGE = PAGES(pageVariant);
  async function get(company: Company, publicId: string): Promise<Answer> {
    const id = UUID.exec(publicId)?.[1].toLowerCase();
    const { rows } = id ? await pool.query<InvoiceRow>({ ...GET, values: [company.id, id, company.timeZone] }) : { rows: [] };
    if (rows.length === 0) return [404, '{"title":"not found"}'];
    return [200, `{"invoice":${JSON.stringify(invoiceWire(rows[0], company.timeZone, publicUrl))}}`];
  }

  async function list(company: Company, query: URLSearchParams): Promise<Answer> {
    const page = pageOf(query);
    const status = query.get('status');
    if (!page || (status !== null && !STATUSES.has(status)) || [...query.keys()].some((k) => !['page', 'per_page', 'status'].includes(k)))
      return [400, '{"title":"not supported by the minimal server"}'];
    const values = [company.id, ...(status === null ? [] : [status]), page.perPage, page.offset, company.timeZone];
    const { rows } = await pool.query<InvoiceRow>({ ...(status === null ? PAGE.all : PAGE.status), values });
    // Past the end the page tells nothing: the bench never asks for such a page.
    if (rows.length === 0 && page.offset > 0) return [400, '{"title":"not supported by the minimal server"}'];
    const total = rows.length === page.perPage ? Number(rows[0].counted) : page.offset + rows.length;
    const invoices = rows.map((r) => invoiceWire(r, company.timeZone, publicUrl));
    return [200, `{"invoices":${JSON.stringify(invoices)},"meta":${pageMetaJson(page.page, page.perPage, total)}}`];
  }

  return (company, path, query) => {
    if (path === '/api/v1/invoices') return list(company, query);
    if (path.startsWith('/api/v1/invoices/')) return get(company, decodeURIComponent(path.slice('/api/v1/invoices/'.length)));
    return undefined;
  };
});
