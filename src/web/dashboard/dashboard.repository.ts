// The figures of the dashboard and of a customer's page, as SQL aggregates over the open invoices
// (never the invoices loaded into Node: a company may hold 100,000 of them).
import { Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import { OPEN_STATUSES } from '../../invoices/invoice-status.js';

export const STAGES = ['sent', 'due', 'reminder1', 'reminder2', 'reminder3', 'readyForCollection', 'atCollection'] as const;
export type Stage = (typeof STAGES)[number];
export const AGING_BUCKETS = ['notDue', 'd1_30', 'd31_60', 'd61_90', 'd90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

export interface Figure {
  count: number;
  /** Decimal string. */
  amount: string;
}

export interface DashboardFigures {
  open: Figure;
  overdue: Figure;
  aging: Record<AgingBucket, Figure>;
  byStage: Array<{ stage: Stage } & Figure>;
  /** Days sales outstanding over the last 90 days; null without sales in them. */
  dso: number | null;
  /** Money collected (payments) in each of the last 12 months, oldest first; month as YYYY-MM. */
  collected: Array<{ month: string; amount: string }>;
}

/** The period of the DSO: open receivables against the invoiced sales of these last days. */
export const DSO_DAYS = 90;

/** One pair of columns per figure: count and sum of the open amount of the invoices that match. */
const pair = (name: string, condition: string) =>
  `count(*) FILTER (WHERE ${condition})::int AS "${name}Count", coalesce(sum(open_amount) FILTER (WHERE ${condition}), 0)::text AS "${name}Amount"`;

/** The open statuses as literals: the planner then proves that invoices_open_figures_idx (a partial index) applies. */
const OPEN_LITERALS = OPEN_STATUSES.map((status) => `'${status}'`).join(', ');

/**
 * Every figure of the open invoices in one pass: count and open amount per stage and aging bucket (at most
 * 7 × 5 rows), summed up in figures(). One grouped index-only scan instead of a scan per figure: with
 * 100,000 invoices this is what keeps the dashboard under its 150 ms (migration 1764700000100).
 */
const OPEN_FIGURES = statement<{ stage: Stage; bucket: AgingBucket; count: number; amount: string }>(
  'web.dashboard_open_figures',
  `SELECT CASE
            WHEN status = 'sent' THEN 'sent'
            WHEN status = 'due' THEN 'due'
            WHEN status IN ('ready_for_reminder1', 'reminder1_sent') THEN 'reminder1'
            WHEN status IN ('ready_for_reminder2', 'reminder2_sent') THEN 'reminder2'
            WHEN status IN ('ready_for_reminder3', 'reminder3_sent') THEN 'reminder3'
            WHEN status = 'ready_for_dept_collection' THEN 'readyForCollection'
            ELSE 'atCollection'
          END AS stage,
          CASE
            WHEN due_date IS NULL OR due_date >= $2::date THEN 'notDue'
            WHEN due_date >= $2::date - 30 THEN 'd1_30'
            WHEN due_date >= $2::date - 60 THEN 'd31_60'
            WHEN due_date >= $2::date - 90 THEN 'd61_90'
            ELSE 'd90'
          END AS bucket,
          count(*)::int AS count, sum(open_amount)::text AS amount
     FROM invoices WHERE company_id = $1 AND status IN (${OPEN_LITERALS})
    GROUP BY 1, 2`,
);
// Invoiced sales: every invoice dated in the period but drafts (not yet sent) and duplicates (never owed).
const SALES = statement<{ sales: string }>(
  'web.dashboard_sales',
  `SELECT coalesce(sum(original_total), 0)::text AS sales
     FROM invoices
    WHERE company_id = $1 AND invoice_date > $2::date - $3::int AND invoice_date <= $2::date AND status NOT IN ('draft', 'duplicate')`,
);
const COLLECTED = statement<{ month: string; amount: string }>(
  'web.dashboard_collected',
  `SELECT to_char(payment_date, 'YYYY-MM') AS month, sum(amount)::text AS amount
     FROM payments
    WHERE company_id = $1 AND payment_date >= $2::date AND payment_date <= $3::date
    GROUP BY 1`,
);
const CUSTOMER_SUMS = statement<Record<string, string | number>>(
  'web.customer_sums',
  `SELECT ${pair('open', 'true')}, ${pair('overdue', 'due_date < $4::date')}
     FROM invoices WHERE company_id = $1 AND customer_id = $2 AND status = ANY($3::text[])`,
);

const figure = (row: Record<string, string | number>, name: string): Figure => ({
  count: Number(row[`${name}Count`]),
  amount: String(row[`${name}Amount`]),
});

@Injectable()
export class DashboardRepository {
  constructor(private readonly sql: Sql) {}

  /** `today`: the company's business date (YYYY-MM-DD); an invoice is overdue from the day after its due date. */
  async figures(companyId: string, today: string): Promise<DashboardFigures> {
    const months = lastMonths(today, 12);
    const [groups, sales, collected] = await Promise.all([
      this.sql.rows(OPEN_FIGURES, [companyId, today]),
      this.sql.one(SALES, [companyId, today, DSO_DAYS]),
      this.sql.rows(COLLECTED, [companyId, `${months[0]}-01`, today]),
    ]);
    const sum = (matches: (group: (typeof groups)[number]) => boolean): Figure =>
      groups
        .filter(matches)
        .reduce<Figure>(
          (total, group) => ({ count: total.count + group.count, amount: new Decimal(total.amount).plus(group.amount).toString() }),
          { count: 0, amount: '0' },
        );
    const aging = Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, sum((group) => group.bucket === bucket)])) as Record<
      AgingBucket,
      Figure
    >;
    const byStage = STAGES.map((stage) => ({ stage, ...sum((group) => group.stage === stage) }));
    const open = sum(() => true);
    // DSO = receivables / sales of the period × its days (the open amount includes charges and is net of payments).
    const dso = Number(sales.sales) > 0 ? Math.round((Number(open.amount) / Number(sales.sales)) * DSO_DAYS) : null;
    return {
      open,
      overdue: sum((group) => group.bucket !== 'notDue'),
      aging,
      byStage,
      dso,
      collected: months.map((month) => ({ month, amount: collected.find((row) => row.month === month)?.amount ?? '0' })),
    };
  }

  async customerSums(companyId: string, customerId: string, today: string): Promise<{ open: Figure; overdue: Figure }> {
    const row = await this.sql.one(CUSTOMER_SUMS, [companyId, customerId, OPEN_STATUSES, today]);
    return { open: figure(row, 'open'), overdue: figure(row, 'overdue') };
  }
}

/** The `count` months up to the one of `today` (YYYY-MM-DD), oldest first, as YYYY-MM. */
export function lastMonths(today: string, count: number): string[] {
  const [year, month] = today.split('-').map(Number);
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(Date.UTC(year, month - 1 - (count - 1 - i), 1));
    return date.toISOString().slice(0, 7);
  });
}
