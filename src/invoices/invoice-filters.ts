// The list filters of GET /api/v1/invoices, read from the query; a malformed filter is a 400.
import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { AppError, type FieldError } from '../common/errors.js';
import { parseCalendarDate } from '../common/calendar-date.js';
import { parsePublicId } from '../common/ids.js';
import { INVOICE_STATUSES, type InvoiceStatus } from './invoice-status.js';
import type { InvoiceFilters } from './invoices.repository.js';

/** YYYY-MM-DD (midnight UTC), or a datetime with its offset: without one its instant would be a guess. */
const SINCE = /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** Strictly: `new Date()` alone takes "1" for the year 2001 and 2026-02-31 for 3 March. */
function parseSince(raw: unknown): Date | undefined {
  if (typeof raw !== 'string') return undefined;
  // The "+" of an offset that was not URL-encoded arrives as a space.
  const text = raw.replace(/ (\d{2}:\d{2})$/, '+$1');
  const match = SINCE.exec(text);
  if (!match || parseCalendarDate(match[1]) !== match[1]) return undefined;
  const since = new Date(text);
  return Number.isNaN(since.getTime()) ? undefined : since;
}

const NO_SUCH_CUSTOMER = '00000000-0000-0000-0000-000000000000';

export function parseInvoiceFilters(query: Record<string, unknown>): InvoiceFilters {
  const errors: FieldError[] = [];
  const filters: InvoiceFilters = {};
  if (query.status !== undefined) {
    if (INVOICE_STATUSES.includes(query.status as InvoiceStatus)) filters.status = query.status as InvoiceStatus;
    else errors.push({ field: 'status', message: `status must be one of ${INVOICE_STATUSES.join(', ')}` });
  }
  if (query.customer_id !== undefined) {
    // A well-formed id of no customer of this company simply matches nothing.
    filters.customerId =
      typeof query.customer_id === 'string' ? (parsePublicId('cus', query.customer_id) ?? NO_SUCH_CUSTOMER) : NO_SUCH_CUSTOMER;
    if (typeof query.customer_id !== 'string' || !query.customer_id.startsWith('cus-')) {
      errors.push({ field: 'customer_id', message: 'customer_id must be a customer id (cus-…)' });
    }
  }
  if (query.updated_since !== undefined) {
    const since = parseSince(query.updated_since);
    if (!since)
      errors.push({
        field: 'updated_since',
        message: 'updated_since must be an ISO 8601 date (YYYY-MM-DD) or a datetime with an offset (2026-11-21T10:00:00+01:00)',
      });
    else filters.updatedSince = since;
  }
  if (errors.length) throw new AppError('request.invalid_query', 'Some invoice filters are invalid (see errors)', errors);
  return filters;
}

/** The filters in the OpenAPI document, beside the parser that reads them. */
export const ApiInvoiceFilters = () =>
  applyDecorators(
    ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: [...INVOICE_STATUSES] } }),
    ApiQuery({
      name: 'customer_id',
      required: false,
      description: 'A customer id; an id of no customer of the company matches nothing',
      schema: { type: 'string', pattern: '^cus-' },
    }),
    ApiQuery({
      name: 'updated_since',
      required: false,
      description: 'Invoices updated at or after this instant: an ISO 8601 date or datetime',
      schema: { type: 'string', example: '2026-11-21T00:00:00+01:00' },
    }),
  );
