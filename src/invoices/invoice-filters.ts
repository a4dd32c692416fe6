// The list filters of GET /api/v1/invoices, read from the query; a malformed filter is a 400.
import { AppError, type FieldError } from '../common/errors.js';
import { parsePublicId } from '../common/ids.js';
import { INVOICE_STATUSES, type InvoiceStatus } from './invoice-status.js';
import type { InvoiceFilters } from './invoices.repository.js';

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
    filters.customerId = typeof query.customer_id === 'string' ? (parsePublicId('cus', query.customer_id) ?? NO_SUCH_CUSTOMER) : NO_SUCH_CUSTOMER;
    if (typeof query.customer_id !== 'string' || !query.customer_id.startsWith('cus-')) {
      errors.push({ field: 'customer_id', message: 'customer_id must be a customer id (cus-…)' });
    }
  }
  if (query.updated_since !== undefined) {
    const since = typeof query.updated_since === 'string' ? new Date(query.updated_since) : new Date(Number.NaN);
    if (Number.isNaN(since.getTime())) errors.push({ field: 'updated_since', message: 'updated_since must be an ISO 8601 date or datetime' });
    else filters.updatedSince = since;
  }
  if (errors.length) throw new AppError('request.invalid_query', 'Invalid invoice filters', errors);
  return filters;
}
