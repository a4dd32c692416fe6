// The actions of the invoice page and when they are offered: asked of the API's own rules (the transition
// table, the fields a status lets change), never derived again here.
import type { Invoice } from '../../invoices/invoice.entity.js';
import { editableFields } from '../../invoices/invoice-rules.js';
import { canApply, type InvoiceStatus } from '../../invoices/invoice-status.js';

export const PAGE_ACTIONS = ['release', 'block', 'unblock', 'write_off', 'archive', 'mark_duplicate', 'hand_to_collection'] as const;
export type PageAction = (typeof PAGE_ACTIONS)[number];
/** The actions that are a status transition of the API's table (block and unblock change fields). */
export type TransitionAction = Exclude<PageAction, 'block' | 'unblock'>;

export function isPageAction(value: unknown): value is PageAction {
  return PAGE_ACTIONS.includes(value as PageAction);
}

/** Whether PATCH may still change the dunning block in this status. */
function blockEditable(status: InvoiceStatus): boolean {
  const fields = editableFields(status);
  return fields === 'all' || fields.includes('dunning_block_reason');
}

export function isOffered(action: PageAction, invoice: Pick<Invoice, 'status' | 'dunningBlockReason'>): boolean {
  if (action === 'block') return blockEditable(invoice.status);
  if (action === 'unblock') return invoice.dunningBlockReason !== null && blockEditable(invoice.status);
  return canApply(action, invoice.status);
}

export function offeredActions(invoice: Pick<Invoice, 'status' | 'dunningBlockReason'>): PageAction[] {
  return PAGE_ACTIONS.filter((action) => isOffered(action, invoice));
}
