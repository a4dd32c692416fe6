// The filters of the push pages, read from their GET forms: the values the API's filters take
// (push-filters.ts), the period as calendar dates in the company's time zone. A malformed filter is
// left out and named, so that the page can say so (400) and still list with the valid ones.
import { addDays, parseCalendarDate } from '../../common/calendar-date.js';
import { zoneOffsetMinutes } from '../../common/dates.js';
import type { AuditFilters } from '../../push/audit/push-audit.repository.js';
import type { DocumentFilters } from '../../push/documents/push-documents.repository.js';
import { DOCUMENT_TYPES, type DocumentType } from '../../push/dto/push-document.dto.js';
import { AUDIT_STEPS, type AuditStep, DOCUMENT_STATUSES, type DocumentStatus } from '../../push/push-document.js';
import { queryText } from '../exceptions/exception-pages.js';

type Query = Record<string, unknown>;

export interface DocumentForm {
  status?: string;
  document_type?: string;
  external_id?: string;
}

export interface AuditForm {
  step?: string;
  document_type?: string;
  external_id?: string;
  from?: string;
  to?: string;
}

function oneOf<T extends string>(query: Query, name: string, values: readonly T[], bad: string[]): T | undefined {
  const value = queryText(query, name);
  if (value === undefined) return undefined;
  if ((values as readonly string[]).includes(value)) return value as T;
  bad.push(name);
  return undefined;
}

function externalId(query: Query, bad: string[]): string | undefined {
  const value = queryText(query, 'external_id')?.trim();
  if (!value) return undefined;
  if (value.length <= 255 && !value.includes('\0')) return value;
  bad.push('external_id');
  return undefined;
}

/** The instant the calendar day `date` begins in the time zone. */
export function startOfDay(date: string, timeZone: string): Date {
  const utcMidnight = new Date(`${date}T00:00:00Z`);
  const guess = new Date(utcMidnight.getTime() - zoneOffsetMinutes(utcMidnight, timeZone) * 60_000);
  // Once more with the offset at the guessed instant: the two differ on the day a zone changes its offset.
  return new Date(utcMidnight.getTime() - zoneOffsetMinutes(guess, timeZone) * 60_000);
}

function day(query: Query, name: string, bad: string[]): string | undefined {
  const value = queryText(query, name);
  if (value === undefined) return undefined;
  const date = parseCalendarDate(value);
  if (!date) bad.push(name);
  return date;
}

export function documentFilters(query: Query, bad: string[]): { filters: DocumentFilters; form: DocumentForm } {
  const filters: DocumentFilters = {
    status: oneOf<DocumentStatus>(query, 'status', DOCUMENT_STATUSES, bad),
    documentType: oneOf<DocumentType>(query, 'document_type', DOCUMENT_TYPES, bad),
    externalId: externalId(query, bad),
  };
  return { filters, form: { status: filters.status, document_type: filters.documentType, external_id: filters.externalId } };
}

/** `from` and `to` are inclusive days: since the start of `from`, until the start of the day after `to`. */
export function auditFilters(query: Query, timeZone: string, bad: string[]): { filters: AuditFilters; form: AuditForm } {
  const from = day(query, 'from', bad);
  const to = day(query, 'to', bad);
  const filters: AuditFilters = {
    step: oneOf<AuditStep>(query, 'step', AUDIT_STEPS, bad),
    documentType: oneOf<DocumentType>(query, 'document_type', DOCUMENT_TYPES, bad),
    externalId: externalId(query, bad),
    since: from ? startOfDay(from, timeZone) : undefined,
    until: to ? startOfDay(addDays(to, 1), timeZone) : undefined,
  };
  return { filters, form: { step: filters.step, document_type: filters.documentType, external_id: filters.externalId, from, to } };
}
