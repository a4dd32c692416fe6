// The interest lines of a reminder or an invoice. Interim form (one line per reminder from the reminder's
// own columns) until the interest engine stores its periods; callers depend only on InterestLine.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import type { InterestLine } from './interest-line.js';

const LINES = statement<InterestLine>(
  'interest.lines',
  `SELECT 'interest' AS kind, to_char(r.interest_from, 'YYYY-MM-DD') AS "from", to_char(r.interest_until, 'YYYY-MM-DD') AS until,
          (r.interest_until - r.interest_from + 1) AS days, i.original_total::text AS principal,
          coalesce((SELECT b.rate FROM base_interest_rates b WHERE b.valid_from <= r.interest_from ORDER BY b.valid_from DESC LIMIT 1), 0)::text AS "baseRate",
          r.interest_points::int AS points, r.default_interest::text AS amount, r.id AS "reminderId"
     FROM reminders r JOIN invoices i ON i.company_id = r.company_id AND i.id = r.invoice_id
    WHERE r.company_id = $1 AND r.invoice_id = $2 AND ($3::uuid IS NULL OR r.id = $3) AND r.default_interest <> 0 AND r.interest_from IS NOT NULL
    ORDER BY r.interest_from`,
);

@Injectable()
export class InterestLines {
  constructor(private readonly sql: Sql) {}

  /** The lines a reminder charged, in date order. */
  forReminder(m: EntityManager | undefined, companyId: string, invoiceId: string, reminderId: string): Promise<InterestLine[]> {
    return this.sql.rows(LINES, [companyId, invoiceId, reminderId], m);
  }

  /** Every line charged or corrected on the invoice, in date order (for the statement of claim). */
  forInvoice(m: EntityManager | undefined, companyId: string, invoiceId: string): Promise<InterestLine[]> {
    return this.sql.rows(LINES, [companyId, invoiceId, null], m);
  }
}
