import { describe, expect, it } from '@jest/globals';
import { IntakeYield } from './intake-yield.js';

/** Keeps the event loop saturated: chunks of 20 ms of busy work until stopped. */
function saturate(): () => void {
  let running = true;
  const spin = () => {
    const end = Date.now() + 20;
    while (Date.now() < end) {
      /* busy */
    }
    if (running) setImmediate(spin);
  };
  setImmediate(spin);
  return () => (running = false);
}

const elapsed = async (work: () => Promise<void>) => {
  const started = Date.now();
  await work();
  return Date.now() - started;
};

/**
 * 'at once' when the wait resolves before the event loop turns even once (ahead of any busy work queued),
 * not a wall-clock bound: a loaded CI machine once stalled this process for 249 ms in such a test.
 */
const beforeTheLoopTurns = (wait: Promise<void>) =>
  Promise.race([wait.then(() => 'at once'), new Promise<string>((resolve) => setImmediate(() => resolve('the event loop turned')))]);

describe('IntakeYield: accepting goes before processing', () => {
  it('does not wait when nothing was accepted lately, however busy the process is', async () => {
    const stop = saturate();
    try {
      expect(await beforeTheLoopTurns(new IntakeYield(2000).giveWay())).toBe('at once');
    } finally {
      stop();
    }
  });

  it('waits one look only when documents come in but the event loop has time to spare', async () => {
    const intake = new IntakeYield(2000);
    intake.accepted();
    const waited = await elapsed(() => intake.giveWay());
    expect(waited).toBeGreaterThanOrEqual(45);
    expect(waited).toBeLessThan(400);
  });

  it('while documents come in and the event loop is saturated, waits until maxYieldMs and no longer', async () => {
    const intake = new IntakeYield(600);
    const stop = saturate();
    const accepting = setInterval(() => intake.accepted(), 5);
    try {
      intake.accepted();
      const waited = await elapsed(() => intake.giveWay());
      expect(waited).toBeGreaterThanOrEqual(550);
      expect(waited).toBeLessThan(1500);
    } finally {
      clearInterval(accepting);
      stop();
    }
  });

  it('stops waiting when the worker stops', async () => {
    const intake = new IntakeYield(5000);
    const stop = saturate();
    const accepting = setInterval(() => intake.accepted(), 5);
    let stopping = false;
    setTimeout(() => (stopping = true), 200);
    try {
      intake.accepted();
      expect(await elapsed(() => intake.giveWay(() => stopping))).toBeLessThan(1500);
    } finally {
      clearInterval(accepting);
      stop();
    }
  });

  it('never waits with maxYieldMs 0', async () => {
    const intake = new IntakeYield(0);
    intake.accepted();
    expect(await beforeTheLoopTurns(intake.giveWay())).toBe('at once');
  });
});
