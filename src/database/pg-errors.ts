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
