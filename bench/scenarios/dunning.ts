// Issue 7: a dunning run over 1,000,000 open invoices of 100 companies, seeded with SQL, through the
// service's own run code, side by side with one hand-written statement doing the same transitions.
import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchContext, Scenario, ScenarioReport } from '../scenario.js';
import type { DunningResult } from './dunning.child.js';

function runChild(ctx: BenchContext, url: string): Promise<DunningResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./dunning.child.js', import.meta.url)), [url], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    let result: DunningResult | undefined;
    child.on('message', (message: DunningResult) => (result = message));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`dunning child exited (${code}) without a result`))));
  });
}

export const dunningScenario: Scenario = {
  name: 'dunning',
  summary: 'dunning run over 1,000,000 open invoices of 100 companies vs one hand-written set-based statement; time and peak RSS',
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const url = await ctx.server.freshDatabase('dunning');
    ctx.log('dunning: seeding 1,000,000 invoices (this takes a while)');
    const r = await runChild(ctx, url);
    const ratio = r.runMs / r.handWrittenMs;
    const moved = Object.values(r.transitions).reduce((a, b) => a + b, 0);
    return {
      table: {
        columns: ['what', 'invoices', 'transitions', 'seconds', 'peak RSS MB'],
        rows: [
          ['hand-written statement (rolled back)', r.invoices, r.handWrittenRows, (r.handWrittenMs / 1000).toFixed(2), '-'],
          ['service: 100 company runs (events, run records)', r.invoices, moved, (r.runMs / 1000).toFixed(2), r.peakRssMb],
        ],
      },
      notes: [
        `ratio service / hand-written: ${ratio.toFixed(2)} (seed took ${(r.seedMs / 1000).toFixed(1)} s; RSS before the runs ${r.baselineRssMb} MB)`,
        `transitions by kind: ${JSON.stringify(r.transitions)}`,
        `every invoice ends in the status the hand-written statement gives it: ${r.sameStatuses ? 'yes' : `NO (${r.differing} statuses differ)`}`,
        `load average at the end: ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')} (${cpus().length} cores)`,
      ],
      targets: [
        { name: 'run < 60 s', met: r.runMs < 60_000, detail: `${(r.runMs / 1000).toFixed(1)} s` },
        { name: 'run ≤ 2× hand-written statement', met: ratio <= 2, detail: ratio.toFixed(2) },
        { name: 'peak RSS < 300 MB', met: r.peakRssMb < 300, detail: `${r.peakRssMb} MB` },
        {
          name: 'same status transitions as the hand-written statement',
          met: r.sameStatuses,
          detail: r.sameStatuses ? 'same' : `${r.differing} differ`,
        },
      ],
      figures: { ...r, ratio },
    };
  },
};
