// The charges of BGB § 288 as SQL over one invoice `i` (its customer `c`): the flat fee of § 288 (5) and
// the first day of default interest a new reminder charges from. When default starts (§ 286) and how
// interest runs day by day is the invoices' interest engine (src/invoices/interest/interest.sql.ts).
// Only reminders already booked count.
export { DEFAULT_SINCE, INTEREST_POINTS, NEXT_INTEREST_DAY as INTEREST_FROM } from '../invoices/interest/interest.sql.js';

/** The flat fee of § 288 (5) BGB. */
export const FLAT_FEE = '40.00';

const bookedReminders = `FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.dispatched_at IS NOT NULL`;

/** True when the invoice carries the flat fee already. */
export const HAS_FLAT_FEE = `EXISTS (SELECT 1 ${bookedReminders} AND r.flat_fee > 0)`;
