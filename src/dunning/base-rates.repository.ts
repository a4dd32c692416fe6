// The Bundesbank's base rate (§ 247 BGB) by the day it took effect (1 January, 1 July), for BGB § 288
// default interest. Seeded by a migration; new rates are added with `npm run cli -- base-rate:set`.
import type { EntityManager } from 'typeorm';
import type { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';

export interface BaseRate {
  validFrom: string;
  rate: string;
}

const SET = statement(
  'dunning.set_base_rate',
  'INSERT INTO base_interest_rates (valid_from, rate) VALUES ($1, $2) ON CONFLICT (valid_from) DO UPDATE SET rate = EXCLUDED.rate',
);
const LATEST = statement<BaseRate>(
  'dunning.latest_base_rates',
  `SELECT to_char(valid_from, 'YYYY-MM-DD') AS "validFrom", rate::text AS rate FROM base_interest_rates ORDER BY valid_from DESC LIMIT 4`,
);
const HAS_RATE = statement('dunning.has_base_rate', 'SELECT 1 FROM base_interest_rates WHERE valid_from = $1');

/** The day a base rate takes effect: a 1 January or 1 July (YYYY-01-01, YYYY-07-01). */
export const BASE_RATE_FROM = /^\d{4}-(01|07)-01$/;
/** A base rate in percent, at most two decimals, possibly negative (after `normalizeRate`). */
export const BASE_RATE = /^-?\d{1,2}(\.\d{1,2})?$/;

/** A rate as typed (German decimal comma too) in the form BASE_RATE checks. */
export function normalizeRate(raw: string): string {
  return raw.trim().replace(',', '.');
}

export async function setBaseRate(sql: Sql, validFrom: string, rate: string): Promise<BaseRate[]> {
  await sql.run(SET, [validFrom, rate]);
  return sql.rows(LATEST);
}

/** The first day of the half-year of a date (YYYY-MM-DD): the day its base rate took effect. */
export function halfYearStart(date: string): string {
  return `${date.slice(0, 4)}-${Number(date.slice(5, 7)) >= 7 ? '07' : '01'}-01`;
}

/** True when the table holds the base rate of the half-year of that date (else the last known rate is carried on). */
export async function hasBaseRateFor(sql: Sql, manager: EntityManager, date: string): Promise<boolean> {
  return (await sql.first(HAS_RATE, [halfYearStart(date)], manager)) !== undefined;
}
