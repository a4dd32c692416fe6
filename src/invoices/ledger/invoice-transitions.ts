// The one function through which an invoice's status changes: it checks the transition table,
// writes the row and the event, and returns the invoice in its new state.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Invoice } from './invoice.entity.js';
import { type InvoiceAction, nextStatus } from './invoice-status.js';
import { type Actor, InvoicesRepository } from './invoices.repository.js';

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
    const to = nextStatus(action, invoice.status, invoice.statusBeforePaid);
    const changes: Partial<Invoice> = { status: to };
    if (to === 'paid') changes.statusBeforePaid = invoice.status;
    if (action === 'reopen') changes.statusBeforePaid = null;
    if (to === 'written_off') changes.writtenOffAt = new Date();
    const updated = await this.invoices.update(invoice, changes, manager);
    await this.invoices.addEvent(invoice, actor, { kind: 'status_changed', fromStatus: invoice.status, toStatus: to, reason, details }, manager);
    return updated;
  }
}
