// The ledger's writes of single invoices and of batches: new invoices (with their first event), money
// by the money rule, many invoices' money at once. Status changes of one invoice are
// InvoiceTransitions'; set-based ones are made from set-based-status.ts.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Decimal } from '../../common/money.js';
import { PendingDocumentsRepository } from '../../documents/pending-documents.repository.js';
import { Sql } from '../../database/sql/sql.js';
import { statement, statementFamily } from '../../database/sql/statement.js';
import { invoiceColumns } from '../invoice-columns.js';
import { Invoice } from '../invoice.entity.js';
import { type Actor, eventValues, InvoicesRepository, type NewEvent } from '../invoices.repository.js';
import { MONEY_TERMS, type MoneyFields, type MoneyPart, moneyFields, moneyStateOf, withAdded } from './money.js';
import type { InvoiceValues } from './new-invoice.js';

const EVENT_PARAMS = 9;

/**
 * The invoice and its first event in one statement (a data-modifying WITH); with `settle`, the
 * invoice's files stop being pending in the same statement (the event's first two parameters are
 * company and invoice). Every column is given: the record comes from newInvoice().
 */
const CREATE_WITH_EVENT = statementFamily<{ settle: boolean }>(
  'ledger.create_invoice',
  ({ settle }) => {
    const columns = invoiceColumns();
    const at = columns.length;
    const slots = (from: number, n: number) => Array.from({ length: n }, (_, i) => `$${from + i + 1}`).join(', ');
    const settled = settle ? `, settled AS (${PendingDocumentsRepository.settleSql(`$${at + 1}`, `$${at + 2}`)})` : '';
    return (
      `WITH created AS (INSERT INTO invoices (${columns.map((c) => `"${c.column}"`).join(', ')}) VALUES (${slots(0, at)}))${settled} ` +
      `INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason, details) VALUES (${slots(at, EVENT_PARAMS)})`
    );
  },
  [{ settle: false }, { settle: true }],
);

/** New money fields for many invoices at once (locked by the caller). */
const UPDATE_MONEY_MANY = statement(
  'ledger.update_money_many',
  () => {
    const columns = [...MONEY_TERMS.map((t) => t.column), 'open_amount'];
    return `UPDATE invoices i SET ${columns.map((c) => `${c} = t.${c}`).join(', ')}, updated_at = now()
              FROM unnest($1::uuid[], $2::uuid[], ${columns.map((_, i) => `$${i + 3}::numeric[]`).join(', ')})
                   AS t(company_id, id, ${columns.join(', ')})
             WHERE i.company_id = t.company_id AND i.id = t.id`;
  },
  { crossTenant: 'a push batch books payments on invoices of the companies its documents name; each row pairs an id with its company' },
);

@Injectable()
export class InvoiceLedger {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly sql: Sql,
  ) {}

  /** A new invoice in the caller's transaction. */
  async create(companyId: string, id: string, values: InvoiceValues, manager: EntityManager): Promise<Invoice> {
    const now = new Date();
    const invoice = manager.create(Invoice, { ...values, companyId, id, createdAt: now, updatedAt: now });
    await this.invoices.guardExternalId(companyId, values.externalId, manager, () => manager.insert(Invoice, invoice));
    return invoice;
  }

  /**
   * Inserts the invoice and its first event in one statement: atomic on its own, one round trip where a
   * transaction takes four (BEGIN, two INSERTs, COMMIT).
   */
  async createWithEvent(companyId: string, id: string, values: InvoiceValues, actor: Actor, event: NewEvent, options: { settlePendingDocuments?: boolean } = {}): Promise<Invoice> {
    const now = new Date();
    const invoice = { ...values, companyId, id, createdAt: now, updatedAt: now } as Invoice;
    const params = [...invoiceColumns().map((c) => invoice[c.property]), ...eventValues(invoice, actor, event)];
    const create = CREATE_WITH_EVENT({ settle: options.settlePendingDocuments ?? false });
    await this.invoices.guardExternalId(companyId, values.externalId, this.sql.manager, () => this.sql.run(create, params));
    return invoice;
  }

  /** Writes money fields computed by the money rule (money.ts); answers the invoice with them. */
  book(invoice: Invoice, money: MoneyFields, manager: EntityManager): Promise<Invoice> {
    return this.invoices.update(invoice, money, manager);
  }

  /** Adds charges (reminder fees, flat fee, default interest) to the invoice; the open amount follows. */
  charge(invoice: Invoice, added: Partial<Record<MoneyPart, Decimal.Value>>, manager: EntityManager): Promise<Invoice> {
    return this.book(invoice, moneyFields(withAdded(moneyStateOf(invoice), added)), manager);
  }

  /** New money fields for many invoices at once (locked by the caller). */
  async bookMany(changes: Array<{ companyId: string; id: string; fields: MoneyFields }>, manager: EntityManager): Promise<void> {
    if (changes.length === 0) return;
    const columns = [...MONEY_TERMS.map((t) => t.part), 'openAmount' as const];
    await this.sql.run(UPDATE_MONEY_MANY, [changes.map((c) => c.companyId), changes.map((c) => c.id), ...columns.map((part) => changes.map((c) => c.fields[part]))], manager);
  }
}
