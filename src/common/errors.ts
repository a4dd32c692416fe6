// Every error the service answers with has a stable code; the code alone decides the HTTP status.

export type ErrorCode =
  | 'request.malformed'
  | 'request.invalid_query'
  | 'request.payload_too_large'
  | 'request.unsupported_media_type'
  | 'request.not_found'
  | 'validation.failed'
  | 'auth.missing_credential'
  | 'auth.invalid_credential'
  | 'auth.credential_expired'
  | 'auth.credential_revoked'
  | 'auth.insecure_transport'
  | 'auth.forbidden'
  | 'registration.disabled'
  | 'registration.email_taken'
  | 'company.not_found'
  | 'customer.not_found'
  | 'customer.external_id_taken'
  | 'contact.not_found'
  | 'contact.external_id_taken'
  | 'idempotency.key_reused'
  | 'idempotency.in_progress'
  | 'invoice.not_found'
  | 'invoice.external_id_taken'
  | 'invoice.transition_not_allowed'
  | 'invoice.not_editable'
  | 'invoice.document_missing'
  | 'invoice.incomplete'
  | 'invoice.not_handed_over'
  | 'payment.not_found'
  | 'payment.external_id_taken'
  | 'payment.not_allowed'
  | 'document.not_pdf'
  | 'document.too_large'
  | 'document.missing'
  | 'document.not_found'
  | 'document.active_content'
  | 'dunning_run.not_found'
  | 'dunning_approval.not_waiting'
  | 'dunning_approval.count_changed'
  | 'dunning_approval.proposal_expired'
  | 'api_key.not_found'
  | 'api_key.not_active'
  | 'oauth_application.not_found'
  | 'push_document.not_found'
  | 'dead_letter.not_found'
  | 'reminder.not_found'
  | 'shipping.not_routable'
  | 'shipping.in_progress'
  | 'shipping.nothing_to_confirm'
  | 'shipping.not_shippable'
  | 'erp_connection.not_found'
  | 'erp_pull_run.not_found'
  | 'erp_pull.already_running'
  | 'rate_limited'
  | 'service_unavailable'
  | 'database.busy'
  | 'internal';

export interface FieldError {
  field: string;
  message: string;
}

export function statusFor(code: ErrorCode): number {
  switch (code) {
    case 'request.malformed':
    case 'request.invalid_query':
      return 400;
    case 'auth.missing_credential':
    case 'auth.invalid_credential':
    case 'auth.credential_expired':
    case 'auth.credential_revoked':
      return 401;
    case 'auth.insecure_transport':
    case 'auth.forbidden':
      return 403;
    case 'request.not_found':
    case 'registration.disabled':
    case 'company.not_found':
    case 'customer.not_found':
    case 'contact.not_found':
    case 'invoice.not_found':
    case 'dunning_run.not_found':
    case 'invoice.document_missing':
    case 'payment.not_found':
    case 'erp_connection.not_found':
    case 'erp_pull_run.not_found':
    case 'api_key.not_found':
    case 'oauth_application.not_found':
    case 'push_document.not_found':
    case 'dead_letter.not_found':
    case 'reminder.not_found':
    case 'document.not_found':
      return 404;
    case 'idempotency.in_progress':
    case 'registration.email_taken':
    case 'customer.external_id_taken':
    case 'contact.external_id_taken':
    case 'invoice.external_id_taken':
    case 'invoice.transition_not_allowed':
    case 'invoice.not_editable':
    case 'invoice.not_handed_over':
    case 'payment.external_id_taken':
    case 'payment.not_allowed':
    case 'erp_pull.already_running':
    case 'api_key.not_active':
    case 'shipping.in_progress':
    case 'shipping.nothing_to_confirm':
    case 'shipping.not_shippable':
    case 'dunning_approval.not_waiting':
    case 'dunning_approval.count_changed':
    case 'dunning_approval.proposal_expired':
      return 409;
    case 'request.payload_too_large':
    case 'document.too_large':
      return 413;
    case 'request.unsupported_media_type':
    case 'document.not_pdf':
      return 415;
    case 'validation.failed':
    case 'invoice.incomplete':
    case 'idempotency.key_reused':
    case 'document.missing':
    case 'document.active_content':
    case 'shipping.not_routable':
      return 422;
    case 'rate_limited':
      return 429;
    case 'internal':
      return 500;
    case 'service_unavailable':
    case 'database.busy':
      return 503;
    default:
      return assertUnreachable(code);
  }
}

function assertUnreachable(code: never): never {
  throw new Error(`unmapped error code ${String(code)}`);
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors: FieldError[] = [],
    /** Extension members added to the problem document (e.g. the id of a conflicting record). */
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get status(): number {
    return statusFor(this.code);
  }
}

export const notFound = (code: ErrorCode, what: string): AppError => new AppError(code, `${what} was not found`);

export const validationFailed = (errors: FieldError[]): AppError =>
  new AppError('validation.failed', 'The request has invalid fields', errors);
