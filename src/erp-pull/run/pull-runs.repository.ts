// SQL for pull runs. A run's progress is added together with each batch it commits, and only while the
// run is still `running`: a run that was declared interrupted (and resumed elsewhere) cannot write.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newUuid } from '../../common/ids.js';
import type { PageRequest } from '../../common/pagination.js';
import { entityColumns } from '../../database/sql/entity-columns.js';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import type { Watermarks } from '../connections/erp-connection.entity.js';
import { type PullMode, PullRun, type PullStatus, type PullTrigger } from './pull-run.entity.js';
import { type BatchTally, type FinalProgress, MAX_ERRORS } from './run-tally.js';

/** A queued run, unless the connection has an active one (the partial unique index decides, across replicas). */
const INSERT_QUEUED = statement<{ id: string }>(
  'erp_pull.insert_queued_run',
  `INSERT INTO erp_pull_runs (company_id, id, connection_id, trigger, mode, status, resumed_from, watermark_from)
   VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7)
   ON CONFLICT (company_id, connection_id) WHERE status IN ('queued', 'running') DO NOTHING
   RETURNING id`,
);
const LOCK_ACTIVE = statement<PullRun>(
  'erp_pull.lock_active_run',
  () => `SELECT ${entityColumns(PullRun, 'r')} FROM erp_pull_runs r
          WHERE r.company_id = $1 AND r.connection_id = $2 AND r.status IN ('queued', 'running')
            FOR UPDATE`,
);
/** A connection's runs, newest first. */
const PAGE = statement<PullRun>(
  'erp_pull.runs_page',
  () => `SELECT ${entityColumns(PullRun)} FROM erp_pull_runs WHERE company_id = $1 AND connection_id = $2 ORDER BY queued_at DESC, id DESC LIMIT $3 OFFSET $4`,
);
const COUNT = statement<{ count: string }>('erp_pull.runs_count', 'SELECT count(*) AS count FROM erp_pull_runs WHERE company_id = $1 AND connection_id = $2');
const START = statement<{ id: string }>(
  'erp_pull.start_run',
  `UPDATE erp_pull_runs SET status = 'running', started_at = now(), heartbeat_at = now()
    WHERE company_id = $1 AND id = $2 AND status = 'queued' RETURNING id`,
);
const PROGRESS = statement<{ id: string }>(
  'erp_pull.add_run_progress',
  `UPDATE erp_pull_runs SET heartbeat_at = now(), pages = GREATEST(pages, $3), requests = GREATEST(requests, $4),
          created = created + $5, updated = updated + $6, unchanged = unchanged + $7, failed = failed + $8, skipped = skipped + $9,
          counts = counts || coalesce((
            SELECT jsonb_object_agg(e.key, coalesce(counts -> e.key, '{}'::jsonb) || coalesce((
                     SELECT jsonb_object_agg(f.key, coalesce((counts -> e.key ->> f.key)::int, 0) + f.value::int) FROM jsonb_each_text(e.value) f), '{}'::jsonb))
              FROM jsonb_each($10::jsonb) e), '{}'::jsonb),
          errors = CASE WHEN jsonb_array_length($11::jsonb) = 0 THEN errors ELSE (
            SELECT coalesce(jsonb_agg(x ORDER BY n), '[]'::jsonb)
              FROM (SELECT x, n FROM jsonb_array_elements(errors || $11::jsonb) WITH ORDINALITY t(x, n) ORDER BY n LIMIT ${MAX_ERRORS}) kept) END,
          watermark_to = coalesce($12::jsonb, watermark_to)
    WHERE company_id = $1 AND id = $2 AND status = 'running' RETURNING id`,
);
const BEAT = statement<{ id: string }>(
  'erp_pull.run_heartbeat',
  `UPDATE erp_pull_runs SET heartbeat_at = now() WHERE company_id = $1 AND id = $2 AND status = 'running' RETURNING id`,
);
const FINISH = statement(
  'erp_pull.finish_run',
  `UPDATE erp_pull_runs SET status = $13, finished_at = now(), heartbeat_at = now(), error = $14, pages = $3, requests = $4,
          created = $5, updated = $6, unchanged = $7, failed = $8, skipped = $9, counts = $10, errors = $11, watermark_to = $12
    WHERE company_id = $1 AND id = $2 AND status = 'running'`,
);
const INTERRUPT = statement(
  'erp_pull.interrupt_run',
  `UPDATE erp_pull_runs SET status = 'failed', finished_at = now(), error = $3
    WHERE company_id = $1 AND id = $2 AND status IN ('queued', 'running')`,
);

export interface NewRun {
  companyId: string;
  connectionId: string;
  trigger: PullTrigger;
  mode: PullMode;
  resumedFrom?: string | null;
  watermarkFrom: Watermarks;
}

@Injectable()
export class PullRunsRepository {
  constructor(private readonly sql: Sql) {}

  /** A queued run, or null when the connection has an active one (the unique index decides, across replicas). */
  async insertQueued(manager: EntityManager, run: NewRun): Promise<PullRun | null> {
    const inserted = await this.sql.first(
      INSERT_QUEUED,
      [run.companyId, newUuid(), run.connectionId, run.trigger, run.mode, run.resumedFrom ?? null, JSON.stringify(run.watermarkFrom)],
      manager,
    );
    return inserted ? manager.findOneByOrFail(PullRun, { companyId: run.companyId, id: inserted.id }) : null;
  }

  /** The connection's queued or running run, locked until the transaction ends. */
  async findActive(manager: EntityManager, companyId: string, connectionId: string): Promise<PullRun | null> {
    return (await this.sql.first(LOCK_ACTIVE, [companyId, connectionId], manager)) ?? null;
  }

  findById(companyId: string, id: string): Promise<PullRun | null> {
    return this.sql.manager.findOneBy(PullRun, { companyId, id });
  }

  async list(companyId: string, connectionId: string, page: PageRequest): Promise<{ runs: PullRun[]; total: number }> {
    const runs = await this.sql.rows(PAGE, [companyId, connectionId, page.perPage, page.offset]);
    const { count } = await this.sql.one(COUNT, [companyId, connectionId]);
    return { runs, total: Number(count) };
  }

  /** queued → running; null when another worker took it first or it is gone. */
  async start(companyId: string, id: string): Promise<PullRun | null> {
    return (await this.sql.affected(START, [companyId, id])) > 0 ? this.findById(companyId, id) : null;
  }

  /**
   * Adds a batch's counts to the run (inside the batch's transaction, so they count once it commits and
   * never otherwise; concurrent batches add up in any order) and writes the heartbeat, the download
   * counters and, at a stream's end, the watermarks. False when the run is no longer running.
   */
  async progress(
    manager: EntityManager,
    companyId: string,
    id: string,
    batch: BatchTally,
    download: { pages: number; requests: number; watermarks?: Watermarks | null },
  ): Promise<boolean> {
    const params = [
      companyId,
      id,
      download.pages,
      download.requests,
      batch.sum('created'),
      batch.sum('updated'),
      batch.sum('unchanged'),
      batch.sum('failed'),
      batch.sum('skipped'),
      JSON.stringify(batch.runCounts(batch.reconciliation.missing > 0)),
      JSON.stringify(batch.errors),
      download.watermarks ? JSON.stringify(download.watermarks) : null,
    ];
    return (await this.sql.affected(PROGRESS, params, manager)) > 0;
  }

  async beat(companyId: string, id: string): Promise<boolean> {
    return (await this.sql.affected(BEAT, [companyId, id])) > 0;
  }

  async finish(companyId: string, id: string, status: Extract<PullStatus, 'succeeded' | 'failed'>, progress: FinalProgress, error: string | null): Promise<void> {
    await this.sql.run(FINISH, [companyId, id, ...this.progressValues(progress), status, error]);
  }

  /** Ends a queued or running run that nobody is working on any more (its process died). */
  async interrupt(manager: EntityManager, companyId: string, id: string, reason: string): Promise<void> {
    await this.sql.run(INTERRUPT, [companyId, id, reason], manager);
  }

  private progressValues(p: FinalProgress): unknown[] {
    return [p.pages, p.requests, p.created, p.updated, p.unchanged, p.failed, p.skipped, JSON.stringify(p.counts), JSON.stringify(p.errors), p.watermarkTo ? JSON.stringify(p.watermarkTo) : null];
  }
}
