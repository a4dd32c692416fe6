// ERP records (normalized OData) → the rows the pull upserts, by the connection's mapping. Pure: every
// record is either a row, a skip (not something we collect: a credit, another currency) or a failure
// with a message saying what is wrong with it.
import { parseCalendarDate } from '../../common/calendar-date.js';
import { Decimal } from '../../common/money.js';
import type { ODataRecord } from '../../connectors/odata-wire.js';
import type { CustomerMapping, ReceivableMapping } from './erp-mapping.js';

export const ERP_CONTACT_PREFIX = 'ERP-';
export const ERP_BLOCK_PREFIX = 'ERP dunning block';

export interface CustomerRow {
  externalId: string;
  name: string;
  street: string;
  zip: string;
  city: string;
  country: string;
  phone: string | null;
  email: string | null;
  additionalNumber: string | null;
  changeDate: string | null;
}

export interface InvoiceRow {
  externalId: string;
  customer: string;
  invoiceNumber: string;
  additionalNumber: string | null;
  total: string;
  invoiceDate: string;
  dueDate: string;
  timeForPayment: number;
  dunningBlock: string | null;
  cleared: boolean;
  clearingDocument: string | null;
  clearingDate: string | null;
  changeDate: string | null;
  /** JSON of the key properties' values as the ERP sent them: a reconciliation asks the ERP for the item by them. */
  erpKey: string;
}

export type Mapped<T> = { row: T } | { skip: string; key: string } | { failure: string; key: string; changeDate: string | null };

const splitPaths = new Map<string, string[]>();

/** The value at a path; through navigation properties the first related record counts. */
export function valueAt(record: ODataRecord, path: string): unknown {
  if (!path.includes('/')) {
    const value = record[path];
    return Array.isArray(value) ? value[0] : value;
  }
  let parts = splitPaths.get(path);
  if (!parts) splitPaths.set(path, (parts = path.split('/')));
  let value: unknown = record;
  for (const part of parts) {
    if (Array.isArray(value)) value = value[0];
    if (!value || typeof value !== 'object') return undefined;
    value = (value as ODataRecord)[part];
  }
  return Array.isArray(value) ? value[0] : value;
}

/** Trimmed text without NUL characters (Postgres text cannot hold them); empty → null. */
export function textAt(record: ODataRecord, path: string | null): string | null {
  if (!path) return null;
  const value = valueAt(record, path);
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === null || value === undefined || typeof value === 'object') return null;
  else text = String(value);
  // Hundreds of thousands of fields per pull: the regex only runs where there is something to remove.
  if (text.indexOf('\u0000') !== -1) text = text.replace(/\u0000/g, '');
  text = text.trim();
  return text === '' ? null : text;
}

function firstText(record: ODataRecord, paths: string[]): string | null {
  for (const path of paths) {
    const text = textAt(record, path);
    if (text) return text;
  }
  return null;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/** A few hundred distinct dates recur across a pull: each is checked once. */
const calendarDates = new Map<string, string | null>();

/** The calendar date of an ISO date or date-time (V2 dates arrive as UTC date-times at midnight). */
export function dateAt(record: ODataRecord, path: string | null): string | null {
  const text = textAt(record, path);
  if (!text) return null;
  const known = calendarDates.get(text);
  if (known !== undefined) return known;
  const match = ISO_DATE.exec(text);
  const date = match ? (parseCalendarDate(`${match[1]}-${match[2]}-${match[3]}`) ?? null) : null;
  if (calendarDates.size >= 10_000) calendarDates.clear();
  calendarDates.set(text, date);
  return date;
}

function firstDate(record: ODataRecord, paths: string[]): string | null {
  for (const path of paths) {
    const date = dateAt(record, path);
    if (date) return date;
  }
  return null;
}

/** Milliseconds since the epoch of a calendar date, computed once per distinct date. */
const dayStarts = new Map<string, number>();

function dayStart(isoDate: string): number {
  let ms = dayStarts.get(isoDate);
  if (ms === undefined) {
    ms = Date.parse(`${isoDate}T00:00:00Z`);
    if (dayStarts.size >= 10_000) dayStarts.clear();
    dayStarts.set(isoDate, ms);
  }
  return ms;
}

/** daysBetween(from, to) (common/calendar-date) over the cached day starts. */
function daysFromTo(fromIso: string, toIso: string): number {
  return Math.round((dayStart(toIso) - dayStart(fromIso)) / 86_400_000);
}

const PLAIN_AMOUNT = /^(\d{1,12})(?:\.(\d+))?$/;

/**
 * The common case without decimal.js: an unsigned decimal string below 1e12, above zero, with at most
 * two significant decimal places → its toFixed(2). Anything else (signs, blanks, exponents, zero, more
 * places, numbers) is undefined and goes the general way, with its messages.
 */
function plainAmount(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const match = PLAIN_AMOUNT.exec(raw);
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  let places = fraction.length;
  while (places > 0 && fraction.charCodeAt(places - 1) === 48 /* 0 */) places--;
  if (places > 2) return undefined;
  const integer = Number(match[1]);
  if (integer === 0 && places === 0) return undefined;
  return `${integer}.${places === 0 ? '00' : places === 1 ? `${fraction[0]}0` : fraction.slice(0, 2)}`;
}

function isTrue(value: unknown): boolean {
  return value === true || value === 'X' || value === 'x' || value === 'true';
}

export function mapPartner(record: ODataRecord, mapping: CustomerMapping): Mapped<CustomerRow> {
  const f = mapping.fields;
  const key = mapping.key.map((k) => textAt(record, k) ?? '').join('-');
  const changeDate = dateAt(record, mapping.change_date) ?? dateAt(record, mapping.creation_date);
  const fail = (failure: string): Mapped<CustomerRow> => ({ failure, key, changeDate });
  const externalId = textAt(record, f.external_id);
  if (!externalId) return fail(`no customer number (${f.external_id})`);
  const name = firstText(record, f.name);
  if (!name) return fail(`no name (${f.name.join(', ')})`);
  const country = textAt(record, f.country)?.toUpperCase() ?? null;
  if (!country || !/^[A-Z]{2}$/.test(country)) return fail(`no ISO country code in the address (${f.country}: ${JSON.stringify(country)})`);
  return {
    row: {
      externalId,
      name,
      street: [textAt(record, f.street), textAt(record, f.house_number)].filter(Boolean).join(' '),
      zip: textAt(record, f.zip) ?? '',
      city: textAt(record, f.city) ?? '',
      country,
      phone: textAt(record, f.phone),
      email: textAt(record, f.email),
      additionalNumber: textAt(record, f.additional_number),
      changeDate,
    },
  };
}

const MAX_AMOUNT = new Decimal('1e12');

/** `currency`: the company's; items in another one are skipped (amounts are not converted). */
export function mapItem(record: ODataRecord, mapping: ReceivableMapping, currency: string): Mapped<InvoiceRow> {
  const f = mapping.fields;
  let key = '';
  let complete = true;
  const raw: unknown[] = [];
  for (let i = 0; i < f.external_id.length; i++) {
    const part = textAt(record, f.external_id[i]);
    if (i > 0) key += '-';
    if (part) key += part;
    else complete = false;
    const value = valueAt(record, f.external_id[i]);
    raw.push(typeof value === 'number' ? value : part);
  }
  const changeDate = dateAt(record, mapping.change_date);
  const fail = (failure: string): Mapped<InvoiceRow> => ({ failure, key, changeDate });
  if (!complete) return fail(`incomplete key (${f.external_id.join(', ')})`);
  const customer = textAt(record, f.customer);
  if (!customer) return fail(`no customer (${f.customer})`);
  const rawAmount = valueAt(record, f.amount);
  let total = plainAmount(rawAmount);
  let amount: Decimal | undefined;
  if (total === undefined) {
    try {
      amount = new Decimal(typeof rawAmount === 'number' ? String(rawAmount) : String(rawAmount ?? '').trim());
    } catch {
      return fail(`amount ${JSON.stringify(rawAmount)} is not a decimal number (${f.amount})`);
    }
    if (!amount.isFinite() || amount.abs().greaterThanOrEqualTo(MAX_AMOUNT)) return fail(`amount ${JSON.stringify(rawAmount)} is out of range`);
    if (amount.decimalPlaces() > 2) return fail(`amount ${amount.toFixed()} has more than 2 decimal places`);
  }
  const itemCurrency = textAt(record, f.currency);
  if (itemCurrency && itemCurrency.toUpperCase() !== currency) return { skip: `currency ${itemCurrency} is not the connection's ${currency}`, key };
  if (amount) {
    if (amount.lessThanOrEqualTo(0)) return { skip: 'not a receivable (credit or zero amount)', key };
    total = amount.toFixed(2);
  }
  const invoiceDate = firstDate(record, f.invoice_date);
  if (!invoiceDate) return fail(`no invoice date (${f.invoice_date.join(', ')})`);
  const dueDate = dateAt(record, f.due_date) ?? invoiceDate;
  const block = textAt(record, f.dunning_block);
  return {
    row: {
      externalId: key,
      customer,
      invoiceNumber: firstText(record, f.invoice_number) ?? key,
      additionalNumber: textAt(record, f.additional_number),
      total: total!,
      invoiceDate,
      dueDate,
      timeForPayment: Math.max(0, daysFromTo(invoiceDate, dueDate)),
      dunningBlock: block ? `${ERP_BLOCK_PREFIX} ${block}` : null,
      cleared: isTrue(valueAt(record, f.is_cleared)),
      clearingDocument: textAt(record, f.clearing_document),
      clearingDate: dateAt(record, mapping.clearing_date),
      changeDate,
      erpKey: JSON.stringify(raw),
    },
  };
}
