import { randomUUID } from 'node:crypto';
import { JobQueue } from '../../src/jobs/job-queue.js';
import { useTestApp } from '../support/use-test-app.js';

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('durable job queue', () => {
  let queue: JobQueue;

  const t = useTestApp({}, { reset: 'manual' });
  beforeAll(() => {
    queue = t.app.get(JobQueue);
  });

  it('enqueues inside the transaction: a rolled-back write leaves no job, a committed one is processed', async () => {
    const name = `test-tx-${randomUUID()}`;
    await queue.define({ name, retryLimit: 0, retryDelaySeconds: 1 });
    const seen: string[] = [];
    await queue.work<{ label: string }>(
      name,
      (job) => {
        seen.push(job.data.label);
        return Promise.resolve();
      },
      { pollingIntervalSeconds: 0.5 },
    );
    await t.db
      .transaction(async (manager) => {
        await queue.send(name, { label: 'rolled back' }, { manager });
        throw new Error('abort');
      })
      .catch(() => undefined);
    await t.db.transaction(async (manager) => {
      await queue.send(name, { label: 'committed' }, { manager });
    });
    await waitFor(() => (seen.length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 1200));
    expect(seen).toEqual(['committed']);
  });

  it('retries a failing job with backoff and then moves it to its dead-letter queue', async () => {
    const name = `test-retry-${randomUUID()}`;
    const dead = `${name}-dead`;
    await queue.define({ name, retryLimit: 2, retryDelaySeconds: 1, deadLetter: dead });
    const attempts: number[] = [];
    await queue.work(
      name,
      () => {
        attempts.push(Date.now());
        return Promise.reject(new Error('temporary failure'));
      },
      { pollingIntervalSeconds: 0.5 },
    );
    const deadLetters: string[] = [];
    await queue.work<{ n: number }>(
      dead,
      (job) => {
        deadLetters.push(String(job.data.n));
        return Promise.resolve();
      },
      { pollingIntervalSeconds: 0.5 },
    );
    await queue.send(name, { n: 7 });
    await waitFor(() => (deadLetters.length > 0 ? true : undefined), 30_000);
    expect(attempts).toHaveLength(3);
    // pg-boss's backoff draws each delay from [d·2ⁿ⁻¹, d·2ⁿ) (jitter), so two gaps can come out equal; what
    // backoff guarantees is the floor: the first retry waits at least 1 × the delay, the second at least 2 ×.
    expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(1000);
    expect(attempts[2] - attempts[1]).toBeGreaterThanOrEqual(2000);
    expect(deadLetters).toEqual(['7']);
  }, 40_000);
});
