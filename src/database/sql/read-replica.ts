// Read-only work on a streaming standby (DATABASE_READ_URL): the web app's dashboard, invoice lists and
// CSV exports, never the API's reads (its clients read their writes back, with ETags). Work goes to the
// standby only when it has replayed the reader's last write (the WAL position the web session keeps) and
// is at most DATABASE_READ_MAX_LAG_SECONDS behind; otherwise, and whenever the standby fails, to the
// primary. Statements of the work reach the standby through the SQL door (sql.ts asks replicaPool()).
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { isDatabaseUnavailable } from '../pg-errors.js';
import { poolOf } from './pg-pool.js';
import { ReplicaLag, walPosition } from './replica-lag.js';
import { statement } from './statement.js';

const WRITE_POSITION = statement<{ position: string }>('database.write_position', 'SELECT pg_current_wal_lsn()::text AS position', {
  crossTenant: 'a server position',
});
// NULL on a server that is not in recovery: a primary named by mistake (or a promoted standby) is not used.
const REPLAY_POSITION = statement<{ position: string | null }>(
  'database.replay_position',
  'SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()::text END AS position',
  { crossTenant: 'a server position' },
);

/** How long a look at the standby's position is reused; a write of the reader's own goes to the primary meanwhile. */
const CHECK_EVERY_MS = 250;
/** A standby that failed is left alone this long (pages then do not wait for its connection timeout). */
const RETRY_DOWN_AFTER_MS = 5_000;
/** A standby that does not answer a connection within this goes to the primary (the primary's own bound is longer). */
const CONNECT_TIMEOUT_MS = 2_000;
/** Recovery conflict: the standby cancelled the statement because replay needed its rows (SQLSTATE 40001). */
const RECOVERY_CONFLICT = '40001';

const routed = new AsyncLocalStorage<pg.Pool>();

/** The standby's pool when the running work was routed to it; statements outside a transaction use it. */
export function replicaPool(): pg.Pool | undefined {
  return routed.getStore();
}

@Injectable()
export class ReadReplica implements OnApplicationShutdown {
  private readonly logger = new Logger(ReadReplica.name);
  private readonly pool: pg.Pool | undefined;
  private readonly lag: ReplicaLag;
  /** The standby's replayed position (null: not usable) and until when that look holds. */
  private replayed: bigint | null = null;
  private validUntil = 0;
  private looking: Promise<void> | undefined;
  /** Why the standby is not used, while it is not (logged once when that starts). */
  private down: string | undefined;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @InjectDataSource() private readonly db: DataSource) {
    const { readUrl, readMaxLagSeconds, poolMax, statementTimeoutMs } = config.database;
    this.lag = new ReplicaLag(readMaxLagSeconds * 1000);
    if (!readUrl) return;
    this.pool = new pg.Pool({
      connectionString: readUrl,
      max: poolMax,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statement_timeout: statementTimeoutMs,
      application_name: 'receivables-read',
      // A standby refuses writes anyway; so does a primary named here by mistake.
      options: '-c default_transaction_read_only=on',
    });
    // An idle connection the standby drops (restart, shutdown) must not crash the process.
    this.pool.on('error', (error) => this.markDown(String(error)));
  }

  /** Whether DATABASE_READ_URL is set: only then is a session's write position worth recording. */
  get configured(): boolean {
    return this.pool !== undefined;
  }

  /** The primary's WAL position now: after a commit, a standby that has replayed it shows that commit. */
  async writePosition(): Promise<string> {
    const { rows } = await poolOf(this.db).query<{ position: string }>({ name: WRITE_POSITION.name, text: WRITE_POSITION.text });
    return rows[0].position;
  }

  /**
   * Runs read-only `work` on the standby when it has replayed `since` (the reader's last write; none:
   * any position) and is not too far behind, else on the primary. A standby that fails on the way gets
   * the work again on the primary, unless `canRetry` says the work already answered (a streamed export).
   */
  async reads<T>(since: string | undefined, work: () => Promise<T>, canRetry: () => boolean = () => true): Promise<T> {
    const pool = this.pool && (await this.serves(since)) ? this.pool : undefined;
    if (!pool) return work();
    try {
      return await routed.run(pool, work);
    } catch (error) {
      if (!standbyFailed(error) || !canRetry()) throw error;
      this.markDown(String(error));
      return routed.exit(work);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.end();
  }

  private async serves(since: string | undefined): Promise<boolean> {
    if (Date.now() >= this.validUntil) await (this.looking ??= this.look().finally(() => (this.looking = undefined)));
    if (this.replayed === null || !this.lag.acceptable(this.replayed)) return false;
    return since === undefined || this.replayed >= walPosition(since);
  }

  /** One look at both servers: the primary's position (a lag sample) and what the standby has replayed. */
  private async look(): Promise<void> {
    const at = Date.now();
    try {
      const [primary, standby] = await Promise.all([
        this.writePosition(),
        this.pool!.query<{ position: string | null }>({ name: REPLAY_POSITION.name, text: REPLAY_POSITION.text }),
      ]);
      this.lag.sample(at, walPosition(primary));
      const replayed = standby.rows[0].position;
      if (replayed === null) return this.markDown('it is not a standby (pg_is_in_recovery() is false)');
      this.replayed = walPosition(replayed);
      this.validUntil = Date.now() + CHECK_EVERY_MS;
      if (this.down) this.logger.log('The read replica answers again');
      this.down = undefined;
    } catch (error) {
      this.markDown(String(error));
    }
  }

  private markDown(reason: string): void {
    if (this.down === undefined) this.logger.warn(`The read replica is not used for ${RETRY_DOWN_AFTER_MS / 1000} s: ${reason}`);
    this.down = reason;
    this.replayed = null;
    this.validUntil = Date.now() + RETRY_DOWN_AFTER_MS;
  }
}

function standbyFailed(error: unknown): boolean {
  const code = (error as { code?: unknown; driverError?: { code?: unknown } }).driverError?.code ?? (error as { code?: unknown }).code;
  return isDatabaseUnavailable(error) || code === RECOVERY_CONFLICT;
}
