// Default and default interest as SQL over one invoice `i` and its customer `c` (the rules: README,
// "Dunning law: default, interest and § 367"). Interest is computed, never stored per day: the function
// default_interest_days() (migration 1764500000000) yields each day's open principal after the § 367
// allocation of the payments, and the lines below group those days into periods of one principal and
// one base rate, each rounded to cents, so every line can be recomputed by hand.

/** A setting of the company's dunning policy (stored as JSON; absent: the default). */
const policySetting = (key: string) => `(SELECT p.policy->>'${key}' FROM dunning_policies p WHERE p.company_id = i.company_id)`;

/** Points above the base rate: § 288 (1) BGB consumers 5, § 288 (2) BGB businesses 9. */
export const INTEREST_POINTS = `(CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END)`;

/**
 * The first day of default (§ 286 BGB), not bounded by today: the day after the deadline of reminder 1
 * once it was sent (§ 286 (1)); with the policy `thirty_days_business`, for a business customer, 31 days
 * after the due date if that is earlier (§ 286 (3): in default when not paid within 30 days of the due
 * date and receipt; the invoice is taken as received by its due date). Consumers only by the reminder:
 * § 286 (3) needs the invoice to have told them so.
 */
export const DEFAULT_SINCE = `least(
    (SELECT r.pay_by + 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1 AND r.dispatched_at IS NOT NULL),
    CASE WHEN c.customer_type = 'business' AND ${policySetting('defaultStarts')} = 'thirty_days_business' THEN i.due_date + 31 END)`;

/** The start of default when the policy charges interest on this invoice, else null. */
export const INTEREST_SINCE = `(CASE WHEN coalesce(${policySetting('defaultInterest')}::boolean, false) AND NOT i.ignore_reminder_fees THEN ${DEFAULT_SINCE} END)`;

/** The last day already charged (by a sent reminder or at the hand-over); a day is never charged twice. */
export const CHARGED_UNTIL = `(SELECT max(l.until_day) FROM interest_lines l
    WHERE l.company_id = i.company_id AND l.invoice_id = i.id AND l.kind = 'interest'
      AND (l.reminder_id IS NULL OR EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = l.company_id AND r.id = l.reminder_id AND r.dispatched_at IS NOT NULL)))`;

/** The first day of interest not yet charged (null: no interest). */
export const NEXT_INTEREST_DAY = `(SELECT CASE WHEN s.since IS NOT NULL THEN greatest(s.since, ${CHARGED_UNTIL} + 1) END FROM (SELECT ${INTEREST_SINCE} AS since) s)`;

/**
 * The interest lines of the days `from` … `until` (SQL date expressions over `i`, `c`), from default
 * starting at `since`: from_day, until_day, days, principal, base_rate, points, amount, where
 * amount = round(principal × (base_rate + points) × days / 36500, 2). Days without principal are left out.
 */
export function interestLinesSql(since: string, from: string, until: string): string {
  return `(SELECT min(d.day) AS from_day, max(d.day) AS until_day, count(*)::int AS days, d.principal, d.base_rate, ${INTEREST_POINTS} AS points,
                  round(d.principal * (d.base_rate + ${INTEREST_POINTS}) * count(*) / 36500, 2) AS amount
             FROM (SELECT x.day, x.principal, x.base_rate, x.day - (row_number() OVER (PARTITION BY x.principal, x.base_rate ORDER BY x.day))::int AS island
                     FROM default_interest_days(i.company_id, i.id, ${since}, ${until}, ${INTEREST_POINTS}) x
                    WHERE x.day >= ${from} AND x.principal > 0) d
            GROUP BY d.principal, d.base_rate, d.island)`;
}

/**
 * An invoice's default_since (as 'YYYY-MM-DD', null before default) and accrued interest (text) on the
 * day `t.today`, named `defaultSince` and `accrued`: columns over `i`, its customer `c` and the laterals
 * of interestStateJoins.
 */
export function interestStateColumns(defaultSince: string, accrued: string): string {
  return `CASE WHEN s.since <= t.today THEN to_char(s.since, 'YYYY-MM-DD') END AS "${defaultSince}",
          coalesce((SELECT sum(l.amount) FROM ${interestLinesSql(INTEREST_SINCE, 's.next_day', 't.today')} l WHERE s.next_day <= t.today AND i.open_amount > 0), 0)::text AS "${accrued}"`;
}

/** The laterals interestStateColumns reads: `t.today` (`day`, or null: today in the company's time zone) and `s`. */
export function interestStateJoins(day: string): string {
  return `CROSS JOIN LATERAL (SELECT coalesce(${day}, (SELECT (now() AT TIME ZONE co.time_zone)::date FROM companies co WHERE co.id = i.company_id)) AS today) t
     CROSS JOIN LATERAL (SELECT ${DEFAULT_SINCE} AS since, ${NEXT_INTEREST_DAY} AS next_day) s`;
}
