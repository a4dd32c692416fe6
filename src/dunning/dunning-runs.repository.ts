// SQL for the record of dunning runs.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PageRequest } from '../common/pagination.js';
import { isUniqueViolation } from '../database/pg-errors.js';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';

/** Who started a run: the scheduler, an API client, or a user on the web page. */
export type RunTrigger = 'api' | 'schedule' | 'web';

export interface RunRecord {
  id: string;
  companyId: string;
  businessDate: string;
  trigger: RunTrigger;
  status: 'running' | 'succeeded' | 'failed';
  startedAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
  transitions: Record<string, number>;
  remindersCreated: number;
  feesPlanned: string;
  errors: string[];
}

interface Row {
  id: string;
  company_id: string;
  business_date: string;
  trigger: RunTrigger;
  status: RunRecord['status'];
  started_at: Date;
  finished_at: Date | null;
  duration_ms: number | null;
  transitions: Record<string, number>;
  reminders_created: number;
  fees_planned: string;
  errors: string[];
}

const toRecord = (r: Row): RunRecord => ({
  id: r.id,
  companyId: r.company_id,
  businessDate: r.business_date,
  trigger: r.trigger,
  status: r.status,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  durationMs: r.duration_ms,
  transitions: r.transitions,
  remindersCreated: r.reminders_created,
  feesPlanned: r.fees_planned,
  errors: r.errors,
});

const COLUMNS = `id, company_id, to_char(business_date, 'YYYY-MM-DD') AS business_date, trigger, status, started_at, finished_at,
  duration_ms, transitions, reminders_created, fees_planned::text AS fees_planned, errors`;

const START = statement(
  'dunning.start_run',
  `INSERT INTO dunning_runs (company_id, id, business_date, trigger, status, started_at) VALUES ($1, $2, $3, $4, 'running', $5)`,
);
const FINISH = statement(
  'dunning.finish_run',
  `UPDATE dunning_runs SET status = $3, finished_at = now(), duration_ms = $4, transitions = $5, reminders_created = $6,
          fees_planned = $7, errors = $8 WHERE company_id = $1 AND id = $2`,
);
const RECORD_FAILURE = statement(
  'dunning.record_failed_run',
  `INSERT INTO dunning_runs (company_id, id, business_date, trigger, status, started_at, finished_at, duration_ms, errors)
   VALUES ($1, $2, $3, $4, 'failed', $5, now(), $6, $7)`,
);
const FIND = statement<Row>('dunning.find_run', `SELECT ${COLUMNS} FROM dunning_runs WHERE company_id = $1 AND id = $2`);
const FIND_SUCCEEDED = statement<Row>(
  'dunning.find_succeeded_run',
  `SELECT ${COLUMNS} FROM dunning_runs WHERE company_id = $1 AND business_date = $2 AND status = 'succeeded'
    ORDER BY started_at DESC LIMIT 1`,
);
const PAGE = statement<Row>(
  'dunning.runs_page',
  `SELECT ${COLUMNS} FROM dunning_runs WHERE company_id = $1 ORDER BY started_at DESC, id LIMIT $2 OFFSET $3`,
);
const COUNT = statement<{ n: number }>('dunning.runs_count', 'SELECT count(*)::int AS n FROM dunning_runs WHERE company_id = $1');
const HAS_SCHEDULED = statement(
  'dunning.has_scheduled_run',
  `SELECT 1 FROM dunning_runs WHERE company_id = $1 AND business_date = $2 AND trigger = 'schedule' AND status <> 'failed'`,
);

@Injectable()
export class DunningRunsRepository {
  constructor(private readonly sql: Sql) {}

  /** False when a scheduled run of that business date exists already (another replica took it). */
  async start(m: EntityManager, run: Pick<RunRecord, 'id' | 'companyId' | 'businessDate' | 'trigger' | 'startedAt'>): Promise<boolean> {
    try {
      await this.sql.run(START, [run.companyId, run.id, run.businessDate, run.trigger, run.startedAt], m);
      return true;
    } catch (error) {
      if (isUniqueViolation(error, 'dunning_runs_scheduled_key')) return false;
      throw error;
    }
  }

  async finish(
    m: EntityManager,
    companyId: string,
    id: string,
    outcome: Pick<RunRecord, 'status' | 'transitions' | 'remindersCreated' | 'feesPlanned' | 'errors' | 'durationMs'>,
  ) {
    await this.sql.run(
      FINISH,
      [
        companyId,
        id,
        outcome.status,
        outcome.durationMs,
        JSON.stringify(outcome.transitions),
        outcome.remindersCreated,
        outcome.feesPlanned,
        JSON.stringify(outcome.errors),
      ],
      m,
    );
  }

  /** A run that failed is recorded on its own, after its transaction rolled back. */
  async recordFailure(
    run: Pick<RunRecord, 'id' | 'companyId' | 'businessDate' | 'trigger' | 'startedAt'>,
    error: string,
    durationMs: number,
  ) {
    await this.sql.run(RECORD_FAILURE, [
      run.companyId,
      run.id,
      run.businessDate,
      run.trigger,
      run.startedAt,
      durationMs,
      JSON.stringify([error]),
    ]);
  }

  async find(companyId: string, id: string): Promise<RunRecord | undefined> {
    const row = await this.sql.first(FIND, [companyId, id]);
    return row && toRecord(row);
  }

  /** The latest succeeded run of the business date. */
  async findSucceeded(m: EntityManager, companyId: string, businessDate: string): Promise<RunRecord | undefined> {
    const row = await this.sql.first(FIND_SUCCEEDED, [companyId, businessDate], m);
    return row && toRecord(row);
  }

  async list(companyId: string, page: PageRequest): Promise<{ runs: RunRecord[]; total: number }> {
    const rows = await this.sql.rows(PAGE, [companyId, page.perPage, page.offset]);
    const { n } = await this.sql.one(COUNT, [companyId]);
    return { runs: rows.map(toRecord), total: n };
  }

  async hasScheduledRun(companyId: string, businessDate: string): Promise<boolean> {
    return (await this.sql.first(HAS_SCHEDULED, [companyId, businessDate])) !== undefined;
  }
}
