// Which connection pulled an invoice (and under which ERP key), and which of them a reconciling run saw
// in the ERP's open list: the rest, still open here, is what the run asks the ERP for by key.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import { sourceStatuses } from '../../invoices/ledger/status-changes.js';
import { textArray } from '../run/pg-array.js';
import { byExternalId } from '../run/pull-upsert.statements.js';
import { uniqueByKey } from '../run/pull-upserts.repository.js';

/** Marks the items of the open list seen (their pulled record, with the ERP key when known). */
const MARK_SEEN = statement(
  'erp_pull.mark_seen',
  `WITH seen AS (
     SELECT i.id, t.erp_key FROM unnest($4::text[], $5::text[]) AS t(external_id, erp_key)
       JOIN LATERAL (${byExternalId('invoices', 't.external_id')}) i ON true
   ),
   marked AS (
     UPDATE erp_pulled_invoices p SET seen_run = $3
       FROM seen s WHERE s.erp_key IS NULL AND p.company_id = $1 AND p.invoice_id = s.id
   )
   INSERT INTO erp_pulled_invoices AS p (company_id, invoice_id, connection_id, erp_key, seen_run)
   SELECT $1, id, $2, erp_key::jsonb, $3 FROM seen WHERE erp_key IS NOT NULL ORDER BY id
   ON CONFLICT (company_id, invoice_id) DO UPDATE SET connection_id = EXCLUDED.connection_id, erp_key = EXCLUDED.erp_key, seen_run = EXCLUDED.seen_run`,
  { plan: 'custom' },
);
/** The connection's unseen invoices a clearing could still settle ($5: settle's source statuses), a page in id order. */
const UNSEEN_OPEN = statement<{ invoice_id: string; external_id: string; erp_key: unknown[] }>(
  'erp_pull.unseen_open',
  `SELECT p.invoice_id, i.external_id, p.erp_key FROM erp_pulled_invoices p
     JOIN invoices i ON i.company_id = p.company_id AND i.id = p.invoice_id
    WHERE p.company_id = $1 AND p.connection_id = $2 AND p.seen_run IS DISTINCT FROM $3
      AND p.invoice_id > coalesce($4::uuid, '00000000-0000-0000-0000-000000000000')
      AND i.status = ANY ($5::text[]) AND i.open_amount > 0
    ORDER BY p.invoice_id LIMIT $6`,
  { plan: 'custom' },
);

@Injectable()
export class PullReconciliationRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * A reconciling run saw these items in the ERP's open list (with their key; null for records that
   * were skipped or failed, which are then only marked if the invoice is the connection's already).
   * Items upsertInvoices wrote were marked there.
   */
  async markSeen(manager: EntityManager, companyId: string, connectionId: string, runId: string, seen: Array<{ externalId: string; erpKey: string | null }>): Promise<void> {
    const rows = uniqueByKey(seen, (r) => r.externalId);
    if (rows.length === 0) return;
    await this.sql.run(
      MARK_SEEN,
      [companyId, connectionId, runId, textArray(rows, (r) => r.externalId), textArray(rows, (r) => r.erpKey)],
      manager,
    );
  }

  /**
   * The connection's invoices a clearing could still settle that the reconciling run did not see in the
   * ERP's open list, a page at a time in invoice id order (after `after`).
   */
  async unseenOpen(manager: EntityManager, companyId: string, connectionId: string, runId: string, after: string | null, limit: number): Promise<UnseenInvoice[]> {
    const rows = await this.sql.rows(UNSEEN_OPEN, [companyId, connectionId, runId, after, sourceStatuses('settle'), limit], manager);
    return rows.map((r) => ({ invoiceId: r.invoice_id, externalId: r.external_id, erpKey: r.erp_key }));
  }
}

export interface UnseenInvoice {
  invoiceId: string;
  externalId: string;
  erpKey: unknown[];
}

