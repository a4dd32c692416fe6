// SQL for pull runs. A run's progress is added together with each batch it commits, and only while the
// run is still `running`: a run that was declared interrupted (and resumed elsewhere) cannot write.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { newUuid } from '../../common/ids.js';
import { returnedRows } from './returned-rows.js';
import type { PageRequest } from '../../common/pagination.js';
import type { Watermarks } from '../connections/erp-connection.entity.js';
import { type PullMode, PullRun, type PullStatus, type PullTrigger } from './pull-run.entity.js';
import { type BatchTally, type FinalProgress, MAX_ERRORS } from './run-tally.js';

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
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A queued run, or null when the connection has an active one (the unique index decides, across replicas). */
  async insertQueued(manager: EntityManager, run: NewRun): Promise<PullRun | null> {
    const rows: Array<{ id: string }> = await manager.query(
      `INSERT INTO erp_pull_runs (company_id, id, connection_id, trigger, mode, status, resumed_from, watermark_from)
       VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7)
       ON CONFLICT (company_id, connection_id) WHERE status IN ('queued', 'running') DO NOTHING
       RETURNING id`,
      [run.companyId, newUuid(), run.connectionId, run.trigger, run.mode, run.resumedFrom ?? null, JSON.stringify(run.watermarkFrom)],
    );
    return rows.length ? manager.findOneByOrFail(PullRun, { companyId: run.companyId, id: rows[0].id }) : null;
  }

  /** The connection's queued or running run, locked until the transaction ends. */
  findActive(manager: EntityManager, companyId: string, connectionId: string): Promise<PullRun | null> {
    return manager
      .createQueryBuilder(PullRun, 'r')
      .where(`r.company_id = :companyId AND r.connection_id = :connectionId AND r.status IN ('queued', 'running')`, { companyId, connectionId })
      .setLock('pessimistic_write')
      .getOne();
  }

  findById(companyId: string, id: string): Promise<PullRun | null> {
    return this.db.manager.findOneBy(PullRun, { companyId, id });
  }

  async list(companyId: string, connectionId: string, page: PageRequest): Promise<{ runs: PullRun[]; total: number }> {
    const [runs, total] = await this.db.manager.findAndCount(PullRun, {
      where: { companyId, connectionId },
      order: { queuedAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.perPage,
    });
    return { runs, total };
  }

  /** queued → running; null when another worker took it first or it is gone. */
  async start(companyId: string, id: string): Promise<PullRun | null> {
    const rows = returnedRows<{ id: string }>(
      await this.db.query(
        `UPDATE erp_pull_runs SET status = 'running', started_at = now(), heartbeat_at = now()
          WHERE company_id = $1 AND id = $2 AND status = 'queued' RETURNING id`,
        [companyId, id],
      ),
    );
    return rows.length ? this.findById(companyId, id) : null;
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
    const result: unknown = await manager.query(
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
      [
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
      ],
    );
    return returnedRows(result).length > 0;
  }

  async beat(companyId: string, id: string): Promise<boolean> {
    const result: unknown = await this.db.query(
      `UPDATE erp_pull_runs SET heartbeat_at = now() WHERE company_id = $1 AND id = $2 AND status = 'running' RETURNING id`,
      [companyId, id],
    );
    return returnedRows(result).length > 0;
  }

  async finish(companyId: string, id: string, status: Extract<PullStatus, 'succeeded' | 'failed'>, progress: FinalProgress, error: string | null): Promise<void> {
    await this.db.query(
      `UPDATE erp_pull_runs SET status = $13, finished_at = now(), heartbeat_at = now(), error = $14, pages = $3, requests = $4,
              created = $5, updated = $6, unchanged = $7, failed = $8, skipped = $9, counts = $10, errors = $11, watermark_to = $12
        WHERE company_id = $1 AND id = $2 AND status = 'running'`,
      [companyId, id, ...this.progressValues(progress), status, error],
    );
  }

  /** Ends a queued or running run that nobody is working on any more (its process died). */
  async interrupt(manager: EntityManager, companyId: string, id: string, reason: string): Promise<void> {
    await manager.query(
      `UPDATE erp_pull_runs SET status = 'failed', finished_at = now(), error = $3
        WHERE company_id = $1 AND id = $2 AND status IN ('queued', 'running')`,
      [companyId, id, reason],
    );
  }

  private progressValues(p: FinalProgress): unknown[] {
    return [p.pages, p.requests, p.created, p.updated, p.unchanged, p.failed, p.skipped, JSON.stringify(p.counts), JSON.stringify(p.errors), p.watermarkTo ? JSON.stringify(p.watermarkTo) : null];
  }
}
