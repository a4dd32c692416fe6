// The dashboard's "needs you" counters: what waits for someone, each counted by the condition of the list
// the API shows for it (the same SQL fragment where one exists), in one aggregate statement.
import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import { WAITING_CONDITION } from '../../dunning/approvals/approvals.repository.js';
import { OPEN_STATUSES } from '../../invoices/invoice-status.js';
import { NEEDING_ATTENTION } from '../../shipping/shipments/shipments.statements.js';

/** A connection `c` whose latest pull run failed: the counter here and the list /exceptions/erp-pulls. */
export const LAST_PULL_FAILED = `(SELECT r.status FROM erp_pull_runs r WHERE r.company_id = c.company_id AND r.connection_id = c.id
               ORDER BY r.queued_at DESC, r.id DESC LIMIT 1) = 'failed'`;

export const NEEDS_YOU = ['shipments', 'approvals', 'deadLetters', 'failedPulls', 'blocked'] as const;
export type NeedsYouKey = (typeof NEEDS_YOU)[number];
export type NeedsYou = Record<NeedsYouKey, number>;

/**
 * $1 company; $2, $3 null (NEEDING_ATTENTION's invoice and document filters: none); $4 the open statuses;
 * $5 today (a dunning block holds up to its end date inclusive).
 */
const COUNTS = statement<NeedsYou>(
  'web.dashboard_needs_you',
  `SELECT
     (SELECT count(*)::int FROM shipments s WHERE ${NEEDING_ATTENTION}) AS "shipments",
     (SELECT count(*)::int FROM invoices i WHERE ${WAITING_CONDITION}) AS "approvals",
     (SELECT count(*)::int FROM push_documents d WHERE d.company_id = $1 AND d.status = 'dead_lettered') AS "deadLetters",
     (SELECT count(*)::int FROM erp_connections c WHERE c.company_id = $1 AND ${LAST_PULL_FAILED}) AS "failedPulls",
     (SELECT count(*)::int FROM invoices b
       WHERE b.company_id = $1 AND b.status = ANY($4::text[]) AND b.dunning_block_reason IS NOT NULL
         AND (b.dunning_block_until IS NULL OR b.dunning_block_until >= $5::date)) AS "blocked"`,
);

@Injectable()
export class NeedsYouRepository {
  constructor(private readonly sql: Sql) {}

  /** `today`: the company's business date (YYYY-MM-DD). */
  counts(companyId: string, today: string): Promise<NeedsYou> {
    return this.sql.one(COUNTS, [companyId, null, null, OPEN_STATUSES, today]);
  }
}
