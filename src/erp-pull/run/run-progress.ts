// A run's progress as it commits: each batch's counts (in the batch's transaction, so they count once it
// commits and never otherwise) and, at a stream's end, its watermark. Either fails with RunSuperseded
// once the run may no longer write (ended elsewhere, its watermarks reset).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import type { Watermarks } from '../connections/erp-connection.entity.js';
import { ErpConnectionsRepository } from '../connections/erp-connections.repository.js';
import { type RunContext, RunSuperseded, type Stream } from './run-context.js';
import { PullRunsRepository } from './pull-runs.repository.js';
import { BatchTally } from './run-tally.js';

@Injectable()
export class RunProgress {
  constructor(
    private readonly sql: Sql,
    private readonly connections: ErpConnectionsRepository,
    private readonly runs: PullRunsRepository,
  ) {}

  /** One batch: its writes and the run's progress in one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  /** Adds the batch's counts and the download counters to the run's row (and the watermarks, if given). */
  async record(manager: EntityManager, ctx: RunContext, batch: BatchTally, watermarks?: Watermarks): Promise<void> {
    const download = { pages: ctx.tally.pages, requests: ctx.tally.requests, watermarks };
    if (!(await this.runs.progress(manager, ctx.connection.companyId, ctx.run.id, batch, download))) throw new RunSuperseded('the run was ended elsewhere');
  }

  /** A batch that writes nothing but its counts (a stream's skip summary). */
  async recordAlone(ctx: RunContext, batch: BatchTally): Promise<void> {
    await this.transaction((manager) => this.record(manager, ctx, batch));
    ctx.tally.commit(batch);
  }

  /** Stores the stream's watermark on the connection and the run, with the batch's counts. */
  async commitWatermark(ctx: RunContext, stream: Stream, date: string, batch = new BatchTally()): Promise<void> {
    const watermarks = { ...ctx.watermarks, [stream]: date };
    await this.transaction(async (manager) => {
      const saved = await this.connections.saveWatermarks(manager, ctx.connection.companyId, ctx.connection.id, ctx.generation, { [stream]: date });
      if (!saved) {
        throw new RunSuperseded('the connection was pointed at another system, service or mapping during the run: its watermarks are not kept, the next run reads everything');
      }
      await this.record(manager, ctx, batch, watermarks);
    });
    ctx.watermarks = watermarks;
    ctx.tally.watermarks = { ...watermarks };
    ctx.tally.commit(batch);
  }
}
