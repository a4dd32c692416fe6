// The reads the dunning pages need beyond the dunning services: the invoices a proposal names (with
// their customer), the invoices a run touched, and the base rate table. Every query is scoped by company
// except the base rates, which are the Bundesbank's and the same for every company.
import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import type { BaseRate } from '../../dunning/base-rates.repository.js';

export interface InvoiceSummary {
  id: string;
  invoiceNumber: string | null;
  customerId: string;
  customerName: string;
  openAmount: string;
  status: string;
  dueDate: string;
}

/** A run page lists at most this many of the invoices the run touched. */
export const TOUCHED_LIMIT = 500;

const SUMMARIES = statement<InvoiceSummary>(
  'web.dunning_invoice_summaries',
  `SELECT i.id, i.invoice_number AS "invoiceNumber", i.customer_id AS "customerId", c.name AS "customerName",
          i.open_amount::text AS "openAmount", i.status, to_char(i.due_date, 'YYYY-MM-DD') AS "dueDate"
     FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
    WHERE i.company_id = $1 AND i.id = ANY($2::uuid[])
    ORDER BY c.name, i.due_date, i.id`,
);
const TOUCHED = statement<InvoiceSummary>(
  'web.dunning_run_invoices',
  `SELECT i.id, i.invoice_number AS "invoiceNumber", i.customer_id AS "customerId", c.name AS "customerName",
          i.open_amount::text AS "openAmount", i.status, to_char(i.due_date, 'YYYY-MM-DD') AS "dueDate"
     FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
    WHERE i.company_id = $1 AND i.id IN (
            SELECT e.invoice_id FROM invoice_events e WHERE e.company_id = $1 AND e.actor_type = 'run' AND e.actor_id = $2::text
            UNION SELECT r.invoice_id FROM reminders r WHERE r.company_id = $1 AND r.run_id = $2::uuid)
    ORDER BY c.name, i.due_date, i.id LIMIT ${TOUCHED_LIMIT}`,
);
const BASE_RATES = statement<BaseRate>(
  'web.base_rates',
  `SELECT to_char(valid_from, 'YYYY-MM-DD') AS "validFrom", rate::text AS rate FROM base_interest_rates ORDER BY valid_from DESC`,
);
// Only a missing half-year is added here; correcting a known rate stays with the CLI (base-rate:set),
// since the table is shared by every company.
const ADD_BASE_RATE = statement<{ added: boolean }>(
  'web.add_base_rate',
  `INSERT INTO base_interest_rates (valid_from, rate) VALUES ($1, $2) ON CONFLICT (valid_from) DO NOTHING RETURNING true AS added`,
);

@Injectable()
export class DunningWebRepository {
  constructor(private readonly sql: Sql) {}

  async summaries(companyId: string, invoiceIds: string[]): Promise<Map<string, InvoiceSummary>> {
    if (invoiceIds.length === 0) return new Map();
    const rows = await this.sql.rows(SUMMARIES, [companyId, [...new Set(invoiceIds)]]);
    return new Map(rows.map((row) => [row.id, row]));
  }

  touchedBy(companyId: string, runId: string): Promise<InvoiceSummary[]> {
    return this.sql.rows(TOUCHED, [companyId, runId]);
  }

  baseRates(): Promise<BaseRate[]> {
    return this.sql.rows(BASE_RATES);
  }

  /** False when the half-year has a rate already (it is left as it is). */
  async addBaseRate(validFrom: string, rate: string): Promise<boolean> {
    return (await this.sql.first(ADD_BASE_RATE, [validFrom, rate])) !== undefined;
  }
}
