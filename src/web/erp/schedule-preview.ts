// The schedule's next run times, for the form's preview: the pull scheduler's own reading of the cron
// expression (pull-schedule.ts), in the company's time zone.
import { cronProblem, nextPullAt } from '../../erp-pull/run/pull-schedule.js';

/** The next `count` run times; [] without a schedule; 'invalid' when the expression is none. */
export function nextRuns(schedule: string | undefined, timeZone: string, count = 3, after = new Date()): Date[] | 'invalid' {
  const expression = schedule?.trim();
  if (!expression) return [];
  if (cronProblem(expression)) return 'invalid';
  const runs: Date[] = [];
  let from = after;
  for (let i = 0; i < count; i++) {
    from = nextPullAt(expression, timeZone, from);
    runs.push(from);
  }
  return runs;
}
