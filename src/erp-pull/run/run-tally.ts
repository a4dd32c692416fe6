// The counters of a pull run. Record outcomes are gathered per batch (a BatchTally: the records mapped
// since the previous batch, then what its writes found) and count only once that batch has committed:
// its transaction adds them to the run's row (so concurrent batches cannot make the progress go
// backwards, and a rolled-back one adds nothing), and after the commit they join the run's totals here.
// Errors are a bounded list: a broken ERP must not grow a run's row without limit.
import type { Watermarks } from '../connections/erp-connection.entity.js';
import type { RecordCounts, RunCounts, RunError } from './pull-run.entity.js';

export const MAX_ERRORS = 100;

export type Entity = 'customers' | 'receivables';

const zero = (): RecordCounts => ({ created: 0, updated: 0, unchanged: 0, failed: 0, skipped: 0 });

export interface ClearingCounts {
  payments: number;
  settled: number;
  reopened: number;
}

export interface ReconciliationCounts {
  /** Open here but no longer in the ERP's open list: asked for by key. */
  missing: number;
  /** Of those, found cleared in the ERP (and settled by their clearing). */
  cleared: number;
  /** Of those, not found at all in the ERP (left open, listed in the errors). */
  not_found: number;
}

/** What one batch adds to the run. */
export class BatchTally {
  readonly counts: Record<Entity, RecordCounts> = { customers: zero(), receivables: zero() };
  readonly clearings: ClearingCounts = { payments: 0, settled: 0, reopened: 0 };
  readonly reconciliation: ReconciliationCounts = { missing: 0, cleared: 0, not_found: 0 };
  readonly errors: RunError[] = [];
  /** Skips per entity and reason, reported once per reason when the stream ends. */
  readonly skips = new Map<string, number>();

  count(entity: Entity, outcome: 'created' | 'updated' | 'unchanged'): void {
    this.counts[entity][outcome]++;
  }

  fail(entity: Entity, key: string | null, message: string): void {
    this.counts[entity].failed++;
    if (this.errors.length < MAX_ERRORS) this.errors.push({ entity, key: key || null, message });
  }

  /** An error worth reporting that is no failed record. */
  report(entity: Entity, key: string | null, message: string): void {
    if (this.errors.length < MAX_ERRORS) this.errors.push({ entity, key, message });
  }

  skip(entity: Entity, reason: string): void {
    this.counts[entity].skipped++;
    const key = `${entity}\u0000${reason}`;
    this.skips.set(key, (this.skips.get(key) ?? 0) + 1);
  }

  /** The sums over both entities, as the run's top-level columns hold them. */
  sum(field: keyof RecordCounts): number {
    return this.counts.customers[field] + this.counts.receivables[field];
  }

  /** Counts as stored in the run's `counts` column (the reconciliation only when there was one). */
  runCounts(withReconciliation: boolean): RunCounts {
    return {
      customers: { ...this.counts.customers },
      receivables: { ...this.counts.receivables },
      clearings: { ...this.clearings },
      ...(withReconciliation ? { reconciliation: { ...this.reconciliation } } : {}),
    };
  }

  /** Adds another batch's counts (errors up to the bound). */
  add(other: BatchTally): void {
    for (const entity of ['customers', 'receivables'] as const) {
      for (const field of Object.keys(other.counts[entity]) as Array<keyof RecordCounts>) this.counts[entity][field] += other.counts[entity][field];
    }
    for (const field of Object.keys(other.clearings) as Array<keyof ClearingCounts>) this.clearings[field] += other.clearings[field];
    for (const field of Object.keys(other.reconciliation) as Array<keyof ReconciliationCounts>) this.reconciliation[field] += other.reconciliation[field];
    for (const error of other.errors) if (this.errors.length < MAX_ERRORS) this.errors.push(error);
    for (const [key, n] of other.skips) this.skips.set(key, (this.skips.get(key) ?? 0) + n);
  }
}

export class RunTally {
  pages = 0;
  requests = 0;
  watermarks: Watermarks | null = null;
  reconciling = false;
  /** The batches that committed. */
  readonly committed = new BatchTally();
  /** Outcomes of records mapped since the last batch was cut. */
  private pending = new BatchTally();

  /** Mapping outcomes are recorded here until the batch they precede takes them (take()). */
  get mapping(): BatchTally {
    return this.pending;
  }

  /** The outcomes gathered so far, for the batch about to be written; counting starts anew. */
  take(): BatchTally {
    const taken = this.pending;
    this.pending = new BatchTally();
    return taken;
  }

  /** A batch committed: its counts join the run's. */
  commit(batch: BatchTally): void {
    this.committed.add(batch);
  }

  /** The messages "n skipped: reason" of an entity's committed skips, once per reason. */
  skipSummaries(entity: Entity): RunError[] {
    const summaries: RunError[] = [];
    for (const [key, n] of this.committed.skips) {
      const [of, reason] = key.split('\u0000');
      if (of !== entity) continue;
      this.committed.skips.delete(key);
      summaries.push({ entity, key: null, message: `${n} skipped: ${reason}` });
    }
    return summaries;
  }

  /** The run's final figures: committed batches only. */
  final(): FinalProgress {
    const c = this.committed;
    return {
      pages: this.pages,
      requests: this.requests,
      created: c.sum('created'),
      updated: c.sum('updated'),
      unchanged: c.sum('unchanged'),
      failed: c.sum('failed'),
      skipped: c.sum('skipped'),
      counts: c.runCounts(this.reconciling),
      errors: [...c.errors],
      watermarkTo: this.watermarks,
    };
  }
}

export interface FinalProgress {
  pages: number;
  requests: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  skipped: number;
  counts: RunCounts;
  errors: RunError[];
  watermarkTo: Watermarks | null;
}
