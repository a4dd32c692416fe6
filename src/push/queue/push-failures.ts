// What becomes of a failed attempt: retried with backoff, or dead-lettered now because no retry can
// cure it; and the error as the client sees it.
import type { Logger } from '@nestjs/common';
import { AppError } from '../../common/errors.js';
import type { PushDocument } from '../push-document.js';
import type { Failed } from './push-queue.repository.js';

/**
 * Client errors that can go away by themselves, retried with backoff: a reference that has not arrived
 * yet (an ERP's documents can come out of order: the payment before its invoice; replay it by hand
 * once the reference exists), and a record created by someone else at the same moment (the retry finds
 * it and updates it).
 */
const RETRYABLE: readonly string[] = [
  'customer.not_found',
  'invoice.not_found',
  'customer.external_id_taken',
  'contact.external_id_taken',
  'invoice.external_id_taken',
  'shipping.in_progress',
  'rate_limited',
];

/**
 * An error that retrying cannot cure: a client error about the document itself or about the state of
 * the record it changes (a payment id held by a REST payment, a field that can no longer change, an
 * archived invoice, a due date before the invoice date). The document is dead-lettered after this one
 * attempt, with the error, instead of three more.
 */
export function isPermanent(error: unknown): boolean {
  return error instanceof AppError && error.status >= 400 && error.status < 500 && !RETRYABLE.includes(error.code);
}

/** Errors are stored and shown to the client: the message, never a stack or SQL parameters. */
function describe(error: unknown): string {
  if (error instanceof AppError) {
    const fields = error.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    return `${error.code}: ${error.message}${fields ? ` (${fields})` : ''}`;
  }
  return error instanceof Error ? error.message.slice(0, 1000) : 'processing failed';
}

/** The failed attempts as the queue records them; an unexpected error (no AppError) is logged too. */
export function failedAttempts(failures: Array<{ document: PushDocument; error: unknown }>, retryLimit: number, logger: Logger): Failed[] {
  return failures.map(({ document, error }) => {
    const permanent = isPermanent(error);
    if (!(error instanceof AppError)) logger.warn({ err: error, document: `doc-${document.id}`, attempt: document.attempts }, 'push document failed');
    return {
      document,
      error: describe(error),
      final: permanent || document.attempts - 1 - document.attemptsBeforeReplay >= retryLimit,
      reason: permanent ? 'the error cannot go away by retrying' : 'every attempt failed',
    };
  });
}
