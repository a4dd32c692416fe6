// SQL of /exceptions/erp-pulls: the connections whose latest pull failed, with that run. The condition is
// the dashboard counter's own (LAST_PULL_FAILED), so the list and the counter always agree.
import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../../common/pagination.js';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import { LAST_PULL_FAILED } from '../dashboard/needs-you.repository.js';

export interface FailedPull {
  connectionId: string;
  connectionName: string;
  runId: string;
  /** When the run ended (an interrupted run that never started: when it was requested). */
  at: Date;
  error: string | null;
  total: number;
}

const FAILED_PULLS_PAGE = statement<FailedPull>(
  'web_erp.failed_pulls_page',
  `SELECT c.id AS "connectionId", c.name AS "connectionName", last.id AS "runId", coalesce(last.finished_at, last.queued_at) AS at,
          last.error, count(*) OVER ()::int AS total
     FROM erp_connections c
     CROSS JOIN LATERAL (SELECT r.id, r.finished_at, r.queued_at, r.error FROM erp_pull_runs r
                          WHERE r.company_id = c.company_id AND r.connection_id = c.id
                          ORDER BY r.queued_at DESC, r.id DESC LIMIT 1) last
    WHERE c.company_id = $1 AND ${LAST_PULL_FAILED}
    ORDER BY at DESC, c.id
    LIMIT $2 OFFSET $3`,
);

@Injectable()
export class FailedPullsRepository {
  constructor(private readonly sql: Sql) {}

  async page(companyId: string, page: PageRequest): Promise<{ pulls: FailedPull[]; total: number }> {
    const pulls = await this.sql.rows(FAILED_PULLS_PAGE, [companyId, page.perPage, page.offset]);
    return { pulls, total: pulls[0]?.total ?? 0 };
  }
}
