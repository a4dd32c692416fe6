// Accepting pushed documents goes before processing them: while documents are being accepted and this
// process's event loop has no time to spare, the worker waits before its next batch (at most
// maxYieldMs each time, so processing never stops for good). The 202s stay fast, and the documents
// gather into fewer, larger batches, which cost less per document once the worker takes them.
import { performance } from 'node:perf_hooks';

/** How long each look at the event loop lasts, and how busy counts as saturated. */
const STEP_MS = 50;
const SATURATED = 0.9;

export class IntakeYield {
  private lastAccepted = -Infinity;

  constructor(private readonly maxYieldMs: number) {}

  /** Documents were queued in this process just now (accepted, or a dead letter replayed). */
  accepted(): void {
    this.lastAccepted = performance.now();
  }

  /** Resolves at once unless documents were accepted in the last step; else once the loop has time again, or after maxYieldMs. */
  async giveWay(stopping: () => boolean = () => false): Promise<void> {
    const until = performance.now() + this.maxYieldMs;
    while (!stopping() && performance.now() - this.lastAccepted < STEP_MS && performance.now() < until) {
      const mark = performance.eventLoopUtilization();
      await new Promise<void>((resolve) => setTimeout(resolve, STEP_MS));
      if (performance.eventLoopUtilization(mark).utilization < SATURATED) return;
    }
  }
}
