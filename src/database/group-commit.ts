// Group commit: calls that arrive while a write is in flight (or within the same turn of the event
// loop) are gathered and written together, in one statement and one commit, instead of one
// transaction each. Every caller is answered only after its batch committed. A batch that fails is
// written again one by one, so a bad item fails alone; an outage (no database) fails the batch at once.
import { isDatabaseUnavailable } from './pg-errors.js';

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitOptions<I, O> {
  /** Writes a whole batch; answers in the order of `items`. */
  writeBatch: (items: I[]) => Promise<O[]>;
  /** Writes one item alone: the fallback for a batch that failed. */
  writeOne: (item: I) => Promise<O>;
  /** Items with the same key never share a batch (the later one waits for the next). */
  keyOf: (item: I) => string;
  /** Bounds the statement and the work done per turn of the event loop. */
  maxBatch: number;
}

export class GroupCommit<I, O> {
  private waiting: Array<Waiting<I, O>> = [];
  private running = false;

  constructor(private readonly options: GroupCommitOptions<I, O>) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.running) {
        this.running = true;
        // Whatever else arrives in this turn of the event loop joins the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length > 0) await this.write(this.take());
    } finally {
      this.running = false;
    }
  }

  /** The next batch: up to maxBatch items in arrival order, one per key. */
  private take(): Array<Waiting<I, O>> {
    const batch: Array<Waiting<I, O>> = [];
    const rest: Array<Waiting<I, O>> = [];
    const keys = new Set<string>();
    for (const waiting of this.waiting) {
      const key = this.options.keyOf(waiting.item);
      if (batch.length < this.options.maxBatch && !keys.has(key)) {
        keys.add(key);
        batch.push(waiting);
      } else {
        rest.push(waiting);
      }
    }
    this.waiting = rest;
    return batch;
  }

  private async write(batch: Array<Waiting<I, O>>): Promise<void> {
    let results: O[];
    try {
      results = await this.options.writeBatch(batch.map((w) => w.item));
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      for (const waiting of batch) {
        await this.options.writeOne(waiting.item).then(waiting.resolve, waiting.reject);
      }
      return;
    }
    batch.forEach((waiting, i) => waiting.resolve(results[i]));
  }
}
