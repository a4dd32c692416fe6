// The Bundesbank's base rate (§ 247 BGB) by the day it took effect (1 January, 1 July), for BGB § 288
// default interest. Seeded by a migration; new rates are added with `npm run cli -- base-rate:set`.
import type { DataSource } from 'typeorm';

export interface BaseRate {
  validFrom: string;
  rate: string;
}

export async function setBaseRate(db: DataSource, validFrom: string, rate: string): Promise<BaseRate[]> {
  await db.query(
    `INSERT INTO base_interest_rates (valid_from, rate) VALUES ($1, $2) ON CONFLICT (valid_from) DO UPDATE SET rate = EXCLUDED.rate`,
    [validFrom, rate],
  );
  const rows: Array<{ valid_from: string; rate: string }> = await db.query(
    `SELECT to_char(valid_from, 'YYYY-MM-DD') AS valid_from, rate::text FROM base_interest_rates ORDER BY valid_from DESC LIMIT 4`,
  );
  return rows.map((r) => ({ validFrom: r.valid_from, rate: r.rate }));
}

/** The first day of the half-year of a date (YYYY-MM-DD): the day its base rate took effect. */
export function halfYearStart(date: string): string {
  return `${date.slice(0, 4)}-${Number(date.slice(5, 7)) >= 7 ? '07' : '01'}-01`;
}

/** True when the table holds the base rate of the half-year of that date (else the last known rate is carried on). */
export async function hasBaseRateFor(db: { query: DataSource['query'] }, date: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM base_interest_rates WHERE valid_from = $1`, [halfYearStart(date)]);
  return rows.length > 0;
}
