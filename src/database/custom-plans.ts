// For the rest of the transaction pg plans every statement, prepared ones included, with its actual
// parameters and the tables' current size. Batch work over tables that grow fast in a burst (the push
// queue, payments, audit rows) needs it: pg's generic plan of a prepared statement, made once while a
// table was nearly empty, stays (a sequential scan per batch over a queue of thousands) until the next
// autoanalyze. One planning per statement of a batch is a small price; single-row statements, whose plans
// do not depend on the size, stay generic.
import type { EntityManager } from 'typeorm';

export async function planForCurrentTables(manager: EntityManager): Promise<void> {
  await manager.query('SET LOCAL plan_cache_mode = force_custom_plan');
}
