// The counters of a pull run while it runs: pages, requests, records per entity and outcome, the first
// errors (a bounded list: a broken ERP must not grow a run's row without limit).
import type { Watermarks } from './erp-connection.entity.js';
import type { RecordCounts, RunCounts, RunError } from './pull-run.entity.js';
import type { RunProgress } from './pull-runs.repository.js';

const MAX_ERRORS = 100;

type Entity = 'customers' | 'receivables';

const zero = (): RecordCounts => ({ created: 0, updated: 0, unchanged: 0, failed: 0, skipped: 0 });

export class RunTally {
  pages = 0;
  requests = 0;
  watermarks: Watermarks | null = null;
  readonly clearings = { payments: 0, settled: 0, reopened: 0 };
  private readonly counts: Record<Entity, RecordCounts> = { customers: zero(), receivables: zero() };
  private readonly errors: RunError[] = [];
  private readonly skips = new Map<string, number>();

  count(entity: Entity, outcome: 'created' | 'updated' | 'unchanged'): void {
    this.counts[entity][outcome]++;
  }

  fail(entity: Entity, key: string | null, message: string): void {
    this.counts[entity].failed++;
    if (this.errors.length < MAX_ERRORS) this.errors.push({ entity, key: key || null, message });
  }

  /** Skips are counted per reason and reported once per reason (flushSkips). */
  skip(entity: Entity, reason: string): void {
    this.counts[entity].skipped++;
    const key = `${entity}\u0000${reason}`;
    this.skips.set(key, (this.skips.get(key) ?? 0) + 1);
  }

  flushSkips(entity: Entity): void {
    for (const [key, n] of this.skips) {
      const [of, reason] = key.split('\u0000');
      if (of !== entity) continue;
      this.skips.delete(key);
      if (this.errors.length < MAX_ERRORS) this.errors.push({ entity, key: null, message: `${n} skipped: ${reason}` });
    }
  }

  progress(): RunProgress {
    const all = [this.counts.customers, this.counts.receivables];
    const sum = (field: keyof RecordCounts) => all.reduce((n, c) => n + c[field], 0);
    const counts: RunCounts = { customers: { ...this.counts.customers }, receivables: { ...this.counts.receivables }, clearings: { ...this.clearings } };
    return {
      pages: this.pages,
      requests: this.requests,
      created: sum('created'),
      updated: sum('updated'),
      unchanged: sum('unchanged'),
      failed: sum('failed'),
      skipped: sum('skipped'),
      counts,
      errors: [...this.errors],
      watermarkTo: this.watermarks,
    };
  }
}
