// The invoice statuses of the spec and the one table of allowed transitions. The dunning engine adds
// its rows to this same table; its side effects and both forms of a change (one invoice, many) are
// src/invoices/ledger/status-changes.ts and set-based-status.ts.
import { AppError } from '../common/errors.js';

export const INVOICE_STATUSES = [
  'draft',
  'sent',
  'due',
  'ready_for_reminder1',
  'reminder1_sent',
  'ready_for_reminder2',
  'reminder2_sent',
  'ready_for_reminder3',
  'reminder3_sent',
  'ready_for_dept_collection',
  'sent_to_dept_collection',
  'written_off',
  'paid',
  'archived',
  'duplicate',
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** Sent and not settled: the invoice is being collected. */
export const OPEN_STATUSES: readonly InvoiceStatus[] = INVOICE_STATUSES.slice(1, 11);

export type InvoiceAction =
  | 'release'
  | 'archive'
  | 'mark_duplicate'
  | 'write_off'
  | 'settle'
  | 'reopen'
  | 'send_reminder1'
  | 'send_reminder2'
  | 'send_reminder3'
  | 'become_due'
  | 'ready_for_reminder1'
  | 'ready_for_reminder2'
  | 'ready_for_reminder3'
  | 'step_back1'
  | 'step_back2'
  | 'step_back3'
  | 'ready_for_collection'
  | 'hand_to_collection';

interface Transition {
  from: readonly InvoiceStatus[];
  /** 'previous': back to the status the invoice had before it was paid. */
  to: InvoiceStatus | 'previous';
}

export const TRANSITIONS: Record<InvoiceAction, Transition> = {
  release: { from: ['draft'], to: 'sent' },
  archive: { from: ['draft', 'paid', 'written_off'], to: 'archived' },
  mark_duplicate: { from: ['draft', 'sent'], to: 'duplicate' },
  write_off: { from: OPEN_STATUSES, to: 'written_off' },
  // Payments, credits and pulls that bring the open amount to zero or below.
  settle: { from: ['draft', ...OPEN_STATUSES, 'written_off'], to: 'paid' },
  // A payment was deleted and money is open again.
  reopen: { from: ['paid'], to: 'previous' },
  // A reminder was created (with its fee) and shipped.
  send_reminder1: { from: ['ready_for_reminder1'], to: 'reminder1_sent' },
  send_reminder2: { from: ['ready_for_reminder2'], to: 'reminder2_sent' },
  send_reminder3: { from: ['ready_for_reminder3'], to: 'reminder3_sent' },
  // The daily dunning run (set-based SQL built from these rows, src/dunning/dunning-run.repository.ts).
  become_due: { from: ['sent'], to: 'due' },
  ready_for_reminder1: { from: ['due'], to: 'ready_for_reminder1' },
  ready_for_reminder2: { from: ['reminder1_sent'], to: 'ready_for_reminder2' },
  ready_for_reminder3: { from: ['reminder2_sent'], to: 'ready_for_reminder3' },
  // Blocked, or the open amount fell below the level's minimum before the reminder went out.
  step_back1: { from: ['ready_for_reminder1'], to: 'due' },
  step_back2: { from: ['ready_for_reminder2'], to: 'reminder1_sent' },
  step_back3: { from: ['ready_for_reminder3'], to: 'reminder2_sent' },
  ready_for_collection: { from: ['reminder3_sent'], to: 'ready_for_dept_collection' },
  hand_to_collection: { from: ['ready_for_dept_collection'], to: 'sent_to_dept_collection' },
};

/** The single source and target of an action whose row has exactly one of each (the run's actions). */
export function simpleTransition(action: InvoiceAction): { from: InvoiceStatus; to: InvoiceStatus } {
  const { from, to } = TRANSITIONS[action];
  if (from.length !== 1 || to === 'previous') throw new Error(`${action} is not a one-to-one transition`);
  return { from: from[0], to };
}

export function canApply(action: InvoiceAction, status: InvoiceStatus): boolean {
  return TRANSITIONS[action].from.includes(status);
}

/** What the action does, to complete "An invoice in status … cannot …". */
const PREDICATES: Record<InvoiceAction, string> = {
  release: 'be released',
  archive: 'be archived',
  mark_duplicate: 'be marked as a duplicate',
  write_off: 'be written off',
  settle: 'be settled',
  reopen: 'be reopened',
  send_reminder1: 'get reminder 1',
  send_reminder2: 'get reminder 2',
  send_reminder3: 'get reminder 3',
  become_due: 'become due',
  ready_for_reminder1: 'become ready for reminder 1',
  ready_for_reminder2: 'become ready for reminder 2',
  ready_for_reminder3: 'become ready for reminder 3',
  step_back1: 'step back from ready for reminder 1',
  step_back2: 'step back from ready for reminder 2',
  step_back3: 'step back from ready for reminder 3',
  ready_for_collection: 'become ready for debt collection',
  hand_to_collection: 'be handed to debt collection',
};

/** The refusal of an action in a status, as a sentence naming the statuses it is allowed from. */
export function transitionRefusal(action: InvoiceAction, status: InvoiceStatus): string {
  return `An invoice in status ${status} cannot ${PREDICATES[action]}; allowed from: ${TRANSITIONS[action].from.join(', ')}`;
}

/** The status after the action, or a 409 naming the statuses the action is allowed from. */
export function nextStatus(action: InvoiceAction, status: InvoiceStatus, previous: InvoiceStatus | null): InvoiceStatus {
  const transition = TRANSITIONS[action];
  if (!transition.from.includes(status)) {
    throw new AppError('invoice.transition_not_allowed', transitionRefusal(action, status), [], {
      current_status: status,
      allowed_from: transition.from,
    });
  }
  return transition.to === 'previous' ? (previous ?? 'sent') : transition.to;
}
