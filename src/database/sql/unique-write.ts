// Writes that may hit a unique constraint, turned into a domain conflict built from a lookup on the
// writer's own connection. Inside a transaction the failed statement aborts it, and looking the holder
// up on a second pooled connection can wait forever: the transaction's connection stays checked out,
// and when every other one waits on a lock this transaction holds, the pool never gives a second.
import type { EntityManager } from 'typeorm';
import { isUniqueViolation } from '../pg-errors.js';

/**
 * Runs `write` on `manager`; when it breaks `constraint`, throws what `conflict` builds from lookups on
 * the same manager. Inside a transaction the write runs under a savepoint, rolled back before the
 * lookup, so the transaction is usable again (its caller still ends it by throwing).
 */
export async function uniqueWrite<T>(
  manager: EntityManager,
  constraint: string,
  write: () => Promise<T>,
  conflict: (manager: EntityManager) => Promise<Error>,
): Promise<T> {
  if (!manager.queryRunner?.isTransactionActive) {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error, constraint)) throw error;
      throw await conflict(manager);
    }
  }
  await manager.query('SAVEPOINT unique_write');
  let result: T;
  try {
    result = await write();
  } catch (error) {
    if (!isUniqueViolation(error, constraint)) throw error;
    await manager.query('ROLLBACK TO SAVEPOINT unique_write');
    throw await conflict(manager);
  }
  await manager.query('RELEASE SAVEPOINT unique_write');
  return result;
}
