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

/** SQLSTATEs of a server that is going away, starting up or out of connections (classes 08, 57P, 53300). */
const UNAVAILABLE_STATES = /^(08...|57P0[1-4]|53300)$/;
/** Socket errors of a server that cannot be reached. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** node-postgres says these in words only. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable/i;
/**
 * TypeORM releases a transaction's query runner when its connection breaks; the next statement (or the
 * COMMIT) says so, through the manager or the runner itself.
 */
const CONNECTION_RELEASED = ['QueryRunnerProviderAlreadyReleasedError', 'QueryRunnerAlreadyReleasedError'];

/**
 * The database cannot be reached or is restarting: nothing is wrong with the request, and the same
 * request succeeds once the database is back (answered 503 with Retry-After, never counted against
 * the client). Looks through TypeORM's wrapper and Node's AggregateError of several addresses.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const e = error as { code?: unknown; name?: unknown; message?: unknown; driverError?: unknown; errors?: unknown; cause?: unknown };
  if (typeof e.name === 'string' && CONNECTION_RELEASED.includes(e.name)) return true;
  if (typeof e.code === 'string' && (UNAVAILABLE_STATES.test(e.code) || UNREACHABLE.has(e.code))) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  const inner = [e.driverError, e.cause, ...(Array.isArray(e.errors) ? (e.errors as unknown[]) : [])];
  return inner.some((i) => isDatabaseUnavailable(i, depth + 1));
}
