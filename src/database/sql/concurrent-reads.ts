// Independent reads at once on the pool (each takes its own connection), one after another on a
// transaction's manager: a transaction is one connection, and node-postgres deprecates a query sent to
// a connection that is still executing one ("Calling client.query() when the client is already
// executing a query is deprecated", a DeprecationWarning at run time).
import type { EntityManager } from 'typeorm';

type Reads<T extends readonly unknown[]> = { [K in keyof T]: () => Promise<T[K]> };

export async function concurrentReads<T extends readonly unknown[]>(manager: EntityManager, reads: Reads<T>): Promise<T> {
  if (!manager.queryRunner) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}
