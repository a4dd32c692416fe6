// What the check before a reminder reads and writes besides the ledger: which of the invoices about to
// be reminded came from which ERP connection (and under which key), and the events of skipped reminders.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';

/** The ERP-pulled invoices among these ids that are still open, with their connection and key. */
const PULLED_ITEMS = statement<{ invoice_id: string; external_id: string; connection_id: string; erp_key: unknown[] }>(
  'erp_pull.clearing_pulled_items',
  `SELECT p.invoice_id, i.external_id, p.connection_id, p.erp_key FROM erp_pulled_invoices p
     JOIN invoices i ON i.company_id = p.company_id AND i.id = p.invoice_id
    WHERE p.company_id = $1 AND p.invoice_id = ANY ($2::uuid[]) AND i.external_id IS NOT NULL AND i.open_amount > 0
    ORDER BY p.connection_id, p.invoice_id`,
);
/** The invoices a reminder step would remind (all ready ones, or those among $2): a superset of what it issues. */
const READY = statement<{ id: string }>(
  'erp_pull.clearing_ready_invoices',
  `SELECT id FROM invoices
    WHERE company_id = $1 AND status IN ('ready_for_reminder1', 'ready_for_reminder2', 'ready_for_reminder3')
      AND ($2::uuid[] IS NULL OR id = ANY ($2::uuid[]))`,
);
const INVOICE_OF_REMINDER = statement<{ invoice_id: string }>(
  'erp_pull.clearing_reminder_invoice',
  'SELECT invoice_id FROM reminders WHERE company_id = $1 AND id = $2',
);
/** One reminder_skipped event per invoice ($2 ids, $3 reasons), the run or reminder named in the details. */
const SKIPPED_EVENTS = statement(
  'erp_pull.clearing_skipped_events',
  `INSERT INTO invoice_events (company_id, invoice_id, kind, actor_type, actor_id, reason, details)
   SELECT $1, t.invoice_id, 'reminder_skipped', 'run', $4, t.reason, $5::jsonb
     FROM unnest($2::uuid[], $3::text[]) AS t(invoice_id, reason)
     JOIN invoices i ON i.company_id = $1 AND i.id = t.invoice_id`,
);

export interface PulledItem {
  invoiceId: string;
  externalId: string;
  connectionId: string;
  erpKey: unknown[];
}

@Injectable()
export class ClearingCheckRepository {
  constructor(private readonly sql: Sql) {}

  async pulledItems(companyId: string, invoiceIds: string[], manager?: EntityManager): Promise<PulledItem[]> {
    if (invoiceIds.length === 0) return [];
    const rows = await this.sql.rows(PULLED_ITEMS, [companyId, invoiceIds], manager);
    return rows.map((r) => ({ invoiceId: r.invoice_id, externalId: r.external_id, connectionId: r.connection_id, erpKey: r.erp_key }));
  }

  async readyForReminder(manager: EntityManager, companyId: string, only?: string[]): Promise<string[]> {
    return (await this.sql.rows(READY, [companyId, only ?? null], manager)).map((r) => r.id);
  }

  async invoiceOfReminder(companyId: string, reminderId: string): Promise<string | undefined> {
    return (await this.sql.first(INVOICE_OF_REMINDER, [companyId, reminderId]))?.invoice_id;
  }

  async skipped(
    manager: EntityManager,
    companyId: string,
    actorId: string | null,
    reasons: Map<string, string>,
    details: Record<string, unknown>,
  ): Promise<void> {
    if (reasons.size === 0) return;
    await this.sql.run(SKIPPED_EVENTS, [companyId, [...reasons.keys()], [...reasons.values()], actorId, JSON.stringify(details)], manager);
  }
}
