// Query filters of the /v2 lists, checked: an unknown value is a 400 naming the parameter.
import { AppError, type FieldError } from '../../common/errors.js';
import { parsePublicId } from '../../common/ids.js';
import { DOCUMENT_TYPES, type DocumentType } from '../dto/push-document.dto.js';
import { AUDIT_STEPS, type AuditStep, DOCUMENT_STATUSES, type DocumentStatus } from '../push-document.js';
import type { AuditFilters } from '../audit/push-audit.repository.js';
import type { DocumentFilters } from './push-documents.repository.js';

type Query = Record<string, unknown>;

function oneOf<T extends string>(query: Query, name: string, values: readonly T[], errors: FieldError[]): T | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
  errors.push({ field: name, message: `${name} must be one of ${values.join(', ')}` });
  return undefined;
}

function text(query: Query, name: string, errors: FieldError[]): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.length > 0 && value.length <= 255 && !value.includes('\0')) return value;
  errors.push({ field: name, message: `${name} must be a text of 1 to 255 characters` });
  return undefined;
}

function instant(query: Query, name: string, errors: FieldError[]): Date | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  const date =
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? new Date(value) : undefined;
  if (date && !Number.isNaN(date.getTime())) return date;
  errors.push({ field: name, message: `${name} must be a date or an ISO 8601 datetime` });
  return undefined;
}

function check(errors: FieldError[]): void {
  if (errors.length) throw new AppError('request.invalid_query', 'Some filters are invalid (see errors)', errors);
}

export function parseDocumentFilters(query: Query, status?: DocumentStatus): DocumentFilters {
  const errors: FieldError[] = [];
  const filters = {
    status: status ?? oneOf(query, 'status', DOCUMENT_STATUSES, errors),
    documentType: oneOf<DocumentType>(query, 'document_type', DOCUMENT_TYPES, errors),
    externalId: text(query, 'external_id', errors),
  };
  check(errors);
  return filters;
}

export function parseAuditFilters(query: Query): AuditFilters {
  const errors: FieldError[] = [];
  const documentText = text(query, 'document_id', errors);
  const documentId = documentText === undefined ? undefined : parsePublicId('doc', documentText);
  if (documentText !== undefined && !documentId)
    errors.push({ field: 'document_id', message: 'document_id must be a document id (doc-…)' });
  const filters = {
    documentId,
    step: oneOf<AuditStep>(query, 'step', AUDIT_STEPS, errors),
    documentType: oneOf<DocumentType>(query, 'document_type', DOCUMENT_TYPES, errors),
    externalId: text(query, 'external_id', errors),
    since: instant(query, 'since', errors),
    until: instant(query, 'until', errors),
  };
  check(errors);
  return filters;
}
