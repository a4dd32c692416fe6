// A connection's schedule: a five-field cron expression in the company's time zone.
import cronParser from 'cron-parser';

/** Why the expression is no schedule, or undefined when it is one. */
export function cronProblem(expression: string): string | undefined {
  if (expression.trim().split(/\s+/).length !== 5) return 'must be a cron expression of five fields (minute hour day month weekday), e.g. "0 */2 * * *"';
  try {
    cronParser.parseExpression(expression, { tz: 'UTC' });
    return undefined;
  } catch (error) {
    return `is not a valid cron expression: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The first time after `after` the schedule names. */
export function nextPullAt(expression: string, timeZone: string, after = new Date()): Date {
  return cronParser.parseExpression(expression, { tz: timeZone, currentDate: after }).next().toDate();
}
