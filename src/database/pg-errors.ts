// Recognises PostgreSQL errors that repositories turn into domain errors.

interface PgError {
  code?: string;
  constraint?: string;
  driverError?: PgError;
}

function pgError(error: unknown): PgError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as PgError;
  return e.driverError ?? e;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = pgError(error);
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

/** pg-pool's error when no connection became free within connectionTimeoutMillis, and pg's when a new one could not open in time. */
const POOL_TIMEOUTS = ['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout'];

/**
 * The database is too busy to serve this request now: no pool connection within the acquisition
 * timeout, a lock wait beyond lock_timeout (55P03), a statement beyond statement_timeout (57014), or
 * a deadlock Postgres broke by cancelling this transaction (40P01). A retry later can succeed.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (error instanceof Error && POOL_TIMEOUTS.includes(error.message)) return true;
  const code = pgError(error)?.code;
  return code === '55P03' || code === '57014' || code === '40P01';
}
