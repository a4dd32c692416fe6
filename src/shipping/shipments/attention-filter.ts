// The filters of GET /api/v1/shipments/attention, read from the query; a malformed one is a 400.
import { AppError, type FieldError } from '../../common/errors.js';
import { parsePublicId } from '../../common/ids.js';
import type { AttentionFilter } from './shipments.repository.js';

const DOCUMENTS = ['invoice', 'reminder'] as const;

export function parseAttentionFilter(query: Record<string, unknown>): AttentionFilter {
  const errors: FieldError[] = [];
  const filter: AttentionFilter = {};
  if (query.invoice_id !== undefined) {
    const id = typeof query.invoice_id === 'string' ? parsePublicId('inv', query.invoice_id) : null;
    if (id) filter.invoiceId = id;
    else errors.push({ field: 'invoice_id', message: 'invoice_id must be an invoice id (inv-…)' });
  }
  if (query.document !== undefined) {
    if (DOCUMENTS.includes(query.document as (typeof DOCUMENTS)[number])) filter.document = query.document as AttentionFilter['document'];
    else errors.push({ field: 'document', message: `document must be one of ${DOCUMENTS.join(', ')}` });
  }
  if (errors.length) throw new AppError('request.invalid_query', 'Some filters are invalid (see errors)', errors);
  return filter;
}
