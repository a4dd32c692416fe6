// The charges of BGB § 288 as SQL over one invoice `i` (its customer `c`): the flat fee of § 288 (5) and
// the default interest of § 288 (1)/(2) on the open principal, day by day at each day's base rate.
// Reminder 1 puts the customer in default (§ 286 (1)): interest runs from the day after it, and the
// flat fee comes with the first reminder after it. Only reminders already booked count.

/** The flat fee of § 288 (5) BGB. */
export const FLAT_FEE = '40.00';

/** Points above the base rate: § 288 (1) consumers 5, § 288 (2) businesses 9. */
export const INTEREST_POINTS = `(CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END)`;

const bookedReminders = `FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.dispatched_at IS NOT NULL`;

/** True when the invoice carries the flat fee already. */
export const HAS_FLAT_FEE = `EXISTS (SELECT 1 ${bookedReminders} AND r.flat_fee > 0)`;

/** The first day of interest not yet charged: the day after reminder 1, or after the last interest line. */
export const INTEREST_FROM = `(SELECT coalesce(max(r.interest_until), min(r.reminder_date) FILTER (WHERE r.reminder_stage = 1)) + 1 ${bookedReminders})`;

/**
 * Interest for the days `from` … `until` (both included, SQL date expressions): per day the open principal
 * (original total minus what the payments up to that day left after costs and interest booked by then,
 * § 367 BGB) times (base rate of that day + points) / 100 / 365, summed, rounded to cents.
 */
export function interestFor(from: string, until: string): string {
  const paidBy = `(SELECT coalesce(sum(p.amount), 0) FROM payments p WHERE p.company_id = i.company_id AND p.invoice_id = i.id AND p.payment_date <= d.day)`;
  const chargedBy = `(SELECT coalesce(sum(r.fees + r.flat_fee + r.default_interest), 0) ${bookedReminders} AND r.reminder_date <= d.day)`;
  const baseRate = `coalesce((SELECT b.rate FROM base_interest_rates b WHERE b.valid_from <= d.day ORDER BY b.valid_from DESC LIMIT 1), 0)`;
  const principal = `(i.original_total - least(i.original_total, greatest(0, ${paidBy} - ${chargedBy})))`;
  return `(SELECT round(coalesce(sum(${principal} * greatest(0, ${baseRate} + ${INTEREST_POINTS}) / 36500), 0), 2)
             FROM (SELECT g::date AS day FROM generate_series(${from}::date, ${until}::date, interval '1 day') g) d)`;
}
