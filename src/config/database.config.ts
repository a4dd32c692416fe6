// Typed configuration of the application's PostgreSQL pool: its size and the bounds that keep any
// request from waiting forever (for a connection, for a lock, for a runaway statement); and the optional
// streaming standby that takes the web app's read-only work (src/database/sql/read-replica.ts).
import { type Env, int } from './env-int.js';

export interface DatabaseConfig {
  /** Connections of the application pool (HTTP requests and in-process job handlers share it). */
  poolMax: number;
  /** How long a request waits for a free pool connection before it answers 503 with Retry-After. */
  acquireTimeoutMs: number;
  /** Postgres lock_timeout of the pool's sessions: the longest wait for a row or advisory lock. */
  lockTimeoutMs: number;
  /** Postgres statement_timeout of the pool's sessions: a guard against runaway statements only. */
  statementTimeoutMs: number;
  /** DATABASE_READ_URL: a streaming standby of DATABASE_URL for dashboards, lists and exports. Sensitive (credentials). */
  readUrl?: string;
  /** The standby serves reads only while it is at most this many seconds behind the primary. */
  readMaxLagSeconds: number;
}

/**
 * Defaults: a pool slot is a matter of milliseconds unless the service is overloaded, so 10 s is
 * a clear "come back later". Locks are held for milliseconds by requests and for the length of one
 * transaction by background work (an ERP batch of at most 2,500 rows, a dunning run of one company);
 * 30 s lets a request wait behind those and still answer. The statement bound is far above the
 * longest legitimate statement (a dunning step over a million invoices takes seconds) and only stops
 * runaways; migrations run on their own connection without these bounds.
 */
export function loadDatabaseConfig(env: Env = process.env): DatabaseConfig {
  return {
    poolMax: int(env, 'DATABASE_POOL_MAX', 20, 2, 1000),
    acquireTimeoutMs: int(env, 'DATABASE_ACQUIRE_TIMEOUT_MS', 10_000, 100, 600_000),
    lockTimeoutMs: int(env, 'DATABASE_LOCK_TIMEOUT_MS', 30_000, 100, 3_600_000),
    statementTimeoutMs: int(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 300_000, 1_000, 86_400_000),
    readUrl: env.DATABASE_READ_URL || undefined,
    // A figure a few seconds old is what a dashboard shows anyway; a user's own writes never wait on it.
    readMaxLagSeconds: int(env, 'DATABASE_READ_MAX_LAG_SECONDS', 10, 1, 3600),
  };
}
