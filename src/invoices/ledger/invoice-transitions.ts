// The one function through which a single invoice's status changes: the transition table and its side
// effects (status-changes.ts, the same definition the set-based SQL is made from), the row and the
// event; it returns the invoice in its new state.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Invoice } from '../invoice.entity.js';
import type { InvoiceAction } from '../invoice-status.js';
import { type Actor, InvoicesRepository } from '../invoices.repository.js';
import { statusChanges } from './status-changes.js';

@Injectable()
export class InvoiceTransitions {
  constructor(private readonly invoices: InvoicesRepository) {}

  async apply(
    manager: EntityManager,
    invoice: Invoice,
    action: InvoiceAction,
    actor: Actor,
    reason: string | null = null,
    details: Record<string, unknown> | null = null,
  ): Promise<Invoice> {
    const changes = statusChanges(action, invoice);
    const updated = await this.invoices.update(invoice, changes, manager);
    await this.invoices.addEvent(invoice, actor, { kind: 'status_changed', fromStatus: invoice.status, toStatus: changes.status, reason, details }, manager);
    return updated;
  }
}
