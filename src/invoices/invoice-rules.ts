// Rules about what an invoice needs before it goes out, and what may still change in each status.
import { AppError, validationFailed } from '../common/errors.js';
import { Decimal } from '../common/money.js';
import type { Invoice } from './invoice.entity.js';
import { type InvoiceStatus, OPEN_STATUSES } from './invoice-status.js';

/** An invoice is sent only with a positive total and a due date. */
export function assertReleasable(invoice: Invoice): void {
  const errors = [];
  if (!new Decimal(invoice.originalTotal).greaterThan(0))
    errors.push({ field: 'total', message: 'a positive total is required to send the invoice' });
  if (!invoice.dueDate) errors.push({ field: 'due_date', message: 'a due date is required to send the invoice' });
  if (errors.length) throw validationFailed(errors);
}

const ALWAYS = ['external_id', 'additional_number'];
const WHILE_OPEN = [
  ...ALWAYS,
  'invoice_number',
  'contact_id',
  'shipping_mode',
  'ignore_reminder_fees',
  'dunning_block_reason',
  'dunning_block_until',
];
/** Extending the payment term is allowed until the first reminder is on its way. */
const EXTENSION = [...WHILE_OPEN, 'due_date', 'time_for_payment'];

/** The request fields a PATCH may change in a status; a draft may change everything. */
export function editableFields(status: InvoiceStatus): readonly string[] | 'all' {
  if (status === 'draft') return 'all';
  if (status === 'sent' || status === 'due') return EXTENSION;
  if (OPEN_STATUSES.includes(status)) return WHILE_OPEN;
  return ALWAYS;
}

export function assertEditable(status: InvoiceStatus, requested: string[]): void {
  const allowed = editableFields(status);
  if (allowed === 'all') return;
  const refused = requested.filter((field) => !allowed.includes(field));
  if (refused.length === 0) return;
  throw new AppError(
    'invoice.not_editable',
    `In status ${status} these fields can no longer change: ${refused.join(', ')}` +
      (refused.includes('total') ? ' (settle a changed amount with a credit or a payment)' : ''),
    refused.map((field) => ({ field, message: `${field} cannot change in status ${status}` })),
    { current_status: status, editable_fields: allowed },
  );
}
