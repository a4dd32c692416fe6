// The stored interest lines of invoices: those a reminder charged, those recorded at the hand-over to
// debt collection, and the corrections a back-dated payment causes. Callers depend only on InterestLine.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import type { InterestLine } from './interest-line.js';
import {
  DEFAULT_SINCE,
  INTEREST_POINTS,
  interestLinesSql,
  interestStateColumns,
  interestStateJoins,
  NEXT_INTEREST_DAY,
} from './interest.sql.js';

const LINE_COLUMNS = `l.kind, to_char(l.from_day, 'YYYY-MM-DD') AS "from", to_char(l.until_day, 'YYYY-MM-DD') AS until, l.days,
          l.principal::text AS principal, l.base_rate::text AS "baseRate", l.points::int AS points, l.amount::text AS amount, l.reminder_id AS "reminderId"`;

const LINES = statement<InterestLine>(
  'interest.lines',
  `SELECT ${LINE_COLUMNS}
     FROM interest_lines l
    WHERE l.company_id = $1 AND l.invoice_id = $2 AND ($3::uuid IS NULL OR l.reminder_id = $3)
    ORDER BY l.from_day, l.created_at, l.kind`,
);

const INSERT_COLUMNS = 'company_id, invoice_id, reminder_id, kind, from_day, until_day, days, principal, base_rate, points, amount';

/** The lines of the issued reminders (their interest_from … interest_until), and each reminder's sum. */
const CHARGE_REMINDERS = statement<{ id: string; default_interest: string }>(
  'interest.charge_reminders',
  `WITH added AS (
     INSERT INTO interest_lines (${INSERT_COLUMNS})
     SELECT r.company_id, r.invoice_id, r.id, 'interest', l.from_day, l.until_day, l.days, l.principal, l.base_rate, l.points, l.amount
       FROM reminders r
       JOIN invoices i ON i.company_id = r.company_id AND i.id = r.invoice_id
       JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
       CROSS JOIN LATERAL ${interestLinesSql(DEFAULT_SINCE, 'r.interest_from', 'r.interest_until')} l
      WHERE r.company_id = $1 AND r.id = ANY($2::uuid[]) AND r.interest_from IS NOT NULL
     RETURNING reminder_id, amount)
   UPDATE reminders r SET default_interest = s.amount
     FROM (SELECT reminder_id, sum(amount) AS amount FROM added GROUP BY reminder_id) s
    WHERE r.company_id = $1 AND r.id = s.reminder_id
   RETURNING r.id, r.default_interest::text`,
);

/** The interest not yet charged up to a day, recorded on the invoice (the hand-over to debt collection). */
const RECORD_UNTIL = statement<InterestLine>(
  'interest.record_until',
  `WITH added AS (
     INSERT INTO interest_lines (${INSERT_COLUMNS})
     SELECT i.company_id, i.id, NULL, 'interest', l.from_day, l.until_day, l.days, l.principal, l.base_rate, l.points, l.amount
       FROM invoices i
       JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
       CROSS JOIN LATERAL (SELECT ${NEXT_INTEREST_DAY} AS next_day) n
       CROSS JOIN LATERAL ${interestLinesSql(DEFAULT_SINCE, 'n.next_day', '$3::date')} l
      WHERE i.company_id = $1 AND i.id = $2 AND n.next_day <= $3::date
     RETURNING *)
   SELECT ${LINE_COLUMNS} FROM added l ORDER BY l.from_day`,
);

/**
 * Corrections of the days already charged: per day, the principal the charged lines (and earlier
 * corrections) ran on against the open principal the payments leave now; where they differ, a line on
 * the difference within one charged line's period, so a correction too is principal × rate × days and
 * belongs to the line it corrects: a back-dated payment gives a negative one.
 */
const CORRECT = statement<InterestLine>(
  'interest.correct',
  `WITH charged AS (
     SELECT g::date AS day, sum(l.principal) AS principal, max(l.base_rate) AS base_rate, max(l.points) AS points,
            (array_agg(l.id) FILTER (WHERE l.kind = 'interest'))[1] AS line
       FROM interest_lines l CROSS JOIN LATERAL generate_series(l.from_day, l.until_day, interval '1 day') g
      WHERE l.company_id = $1 AND l.invoice_id = $2
        AND (l.reminder_id IS NULL OR EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = l.company_id AND r.id = l.reminder_id AND r.dispatched_at IS NOT NULL))
      GROUP BY 1),
   owed AS (
     SELECT x.day, x.principal
       FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
       CROSS JOIN LATERAL default_interest_days(i.company_id, i.id, ${DEFAULT_SINCE}, (SELECT max(day) FROM charged), ${INTEREST_POINTS}) x
      WHERE i.company_id = $1 AND i.id = $2),
   delta AS (
     SELECT ch.day, o.principal - ch.principal AS principal, ch.base_rate, ch.points, ch.line,
            ch.day - (row_number() OVER (PARTITION BY o.principal - ch.principal, ch.base_rate, ch.points, ch.line ORDER BY ch.day))::int AS island
       FROM charged ch JOIN owed o ON o.day = ch.day
      WHERE o.principal <> ch.principal),
   added AS (
     INSERT INTO interest_lines (${INSERT_COLUMNS})
     SELECT $1, $2, NULL, 'correction', min(day), max(day), count(*), principal, base_rate, points,
            round(principal * (base_rate + points) * count(*) / 36500, 2)
       FROM delta GROUP BY principal, base_rate, points, line, island
     RETURNING *)
   SELECT ${LINE_COLUMNS} FROM added l ORDER BY l.from_day`,
);

export interface InterestState {
  /** The first day of default (§ 286 BGB), null while the invoice is not in default. */
  defaultSince: string | null;
  /** Interest accrued up to today and not yet charged, rounded per line as a charge would be; 0 once nothing is open. */
  accruedInterest: string;
}

/** $3: the day (null: today in the company's time zone). */
const STATE = statement<{ id: string; default_since: string | null; accrued: string }>(
  'interest.state',
  `SELECT i.id, ${interestStateColumns('default_since', 'accrued')}
     FROM invoices i
     JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
     ${interestStateJoins('$3::date')}
    WHERE i.company_id = $1 AND i.id = ANY($2::uuid[])`,
);

@Injectable()
export class InterestLines {
  constructor(private readonly sql: Sql) {}

  /** The lines a reminder charged, in date order. */
  forReminder(m: EntityManager | undefined, companyId: string, invoiceId: string, reminderId: string): Promise<InterestLine[]> {
    return this.sql.rows(LINES, [companyId, invoiceId, reminderId], m);
  }

  /** Every line charged or corrected on the invoice, in date order (for the statement of claim). */
  forInvoice(m: EntityManager | undefined, companyId: string, invoiceId: string): Promise<InterestLine[]> {
    return this.sql.rows(LINES, [companyId, invoiceId, null], m);
  }

  /** Stores the lines of freshly issued reminders and sets each one's default_interest to their sum. */
  async chargeReminders(m: EntityManager, companyId: string, reminderIds: string[]): Promise<Map<string, string>> {
    if (reminderIds.length === 0) return new Map();
    const rows = await this.sql.rows(CHARGE_REMINDERS, [companyId, reminderIds], m);
    return new Map(rows.map((r) => [r.id, r.default_interest]));
  }

  /** Records the interest not yet charged up to `day` (the hand-over); the caller books their sum. */
  recordUntil(m: EntityManager, companyId: string, invoiceId: string, day: string): Promise<InterestLine[]> {
    return this.sql.rows(RECORD_UNTIL, [companyId, invoiceId, day], m);
  }

  /** Corrects the charged days to the payments as they are now; the caller books the lines' sum. */
  correct(m: EntityManager, companyId: string, invoiceId: string): Promise<InterestLine[]> {
    return this.sql.rows(CORRECT, [companyId, invoiceId], m);
  }

  /** default_since and accrued_interest of invoices as of `day` (null: today in the company's time zone). */
  async states(
    m: EntityManager | undefined,
    companyId: string,
    invoiceIds: string[],
    day: string | null = null,
  ): Promise<Map<string, InterestState>> {
    if (invoiceIds.length === 0) return new Map();
    const rows = await this.sql.rows(STATE, [companyId, invoiceIds, day], m);
    return new Map(rows.map((r) => [r.id, { defaultSince: r.default_since, accruedInterest: r.accrued }]));
  }
}
