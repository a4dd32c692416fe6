// The RFC 9457 problem document every error response has (src/common/problem.ts), served as
// `application/problem+json`, with the stable error code and the request id as extension members.
import type { ErrorCode } from '../common/errors.js';
import { enumProperty, integerProperty, textProperty } from './properties.js';
import { arrayOf, component } from './schema.js';

/** Every error code; the compiler checks that the list is complete. */
const CODES: Record<ErrorCode, true> = {
  'request.malformed': true,
  'request.invalid_query': true,
  'request.payload_too_large': true,
  'request.unsupported_media_type': true,
  'request.not_found': true,
  'validation.failed': true,
  'auth.missing_credential': true,
  'auth.invalid_credential': true,
  'auth.credential_expired': true,
  'auth.credential_revoked': true,
  'auth.insecure_transport': true,
  'auth.forbidden': true,
  'registration.disabled': true,
  'registration.email_taken': true,
  'company.not_found': true,
  'customer.not_found': true,
  'customer.external_id_taken': true,
  'contact.not_found': true,
  'contact.external_id_taken': true,
  'idempotency.key_reused': true,
  'idempotency.in_progress': true,
  'invoice.not_found': true,
  'invoice.external_id_taken': true,
  'invoice.transition_not_allowed': true,
  'invoice.not_editable': true,
  'invoice.document_missing': true,
  'invoice.incomplete': true,
  'invoice.not_handed_over': true,
  'payment.not_found': true,
  'payment.external_id_taken': true,
  'payment.not_allowed': true,
  'document.not_pdf': true,
  'document.too_large': true,
  'document.missing': true,
  'dunning_run.not_found': true,
  'api_key.not_found': true,
  'api_key.not_active': true,
  'oauth_application.not_found': true,
  'push_document.not_found': true,
  'dead_letter.not_found': true,
  'reminder.not_found': true,
  'shipping.not_routable': true,
  'shipping.in_progress': true,
  'shipping.nothing_to_confirm': true,
  'shipping.not_shippable': true,
  'erp_connection.not_found': true,
  'erp_pull_run.not_found': true,
  'erp_pull.already_running': true,
  rate_limited: true,
  service_unavailable: true,
  'database.busy': true,
  'document.not_found': true,
  'document.active_content': true,
  internal: true,
};

export const FieldErrorSchema = component('FieldError', {
  field: textProperty({ example: 'customer[external_id]', description: 'The offending field, with bracket names as sent' }),
  message: textProperty({ example: 'customer[external_id] is required' }),
});

export const ProblemSchema = component(
  'Problem',
  {
    type: {
      type: 'string',
      format: 'uri',
      pattern: '^urn:receivables:problem:',
      example: 'urn:receivables:problem:validation.failed',
      description: 'urn:receivables:problem:<code>',
    },
    title: textProperty({ example: 'Unprocessable Entity', description: 'The reason phrase of the status' }),
    status: integerProperty({ minimum: 400, maximum: 599, example: 422 }),
    detail: textProperty({ example: 'The request has invalid fields' }),
    code: enumProperty(Object.keys(CODES) as ErrorCode[], {
      example: 'validation.failed',
      description: 'Stable error code; it alone decides the status',
    }),
    errors: arrayOf(FieldErrorSchema, { description: 'The fields at fault; empty when the problem is not about fields' }),
    request_id: textProperty({ example: 'b7e4c1d2-9a8f-4c3e-8f1a-5d6e7f809a1b', description: 'The X-Request-ID of the request' }),
    existing_id: textProperty({
      example: 'cus-3f2b8c1e-6a4d-4e0b-9c57-2d8e1f0a7b64',
      description: '409 for a taken external_id: the id of the record that has it',
    }),
    current_status: textProperty({ example: 'draft', description: '409 for an invoice action or edit: the invoice’s status' }),
    allowed_from: arrayOf({ type: 'string' }, { description: '409 for an invoice action: the statuses it is allowed from' }),
    editable_fields: arrayOf({ type: 'string' }, { description: '409 for an invoice edit: the fields that may still change' }),
    invoice_id: textProperty({ description: '409 for a taken payment external_id: the invoice of that payment' }),
  },
  {
    description: 'RFC 9457 problem document (Content-Type: application/problem+json)',
    optional: ['existing_id', 'current_status', 'allowed_from', 'editable_fields', 'invoice_id'],
  },
);
