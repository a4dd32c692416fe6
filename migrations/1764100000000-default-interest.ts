import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * BGB § 288: the Bundesbank's base rate (Basiszinssatz, § 247 BGB) by the day it took effect, default
 * interest and the 40 EUR flat fee (§ 288 (5)) as separate amounts on invoices and reminders.
 * Later rates (every 1 January and 1 July) are added with `npm run cli -- base-rate:set`.
 */
export const BASE_RATES: Array<[string, string]> = [
  ['2002-01-01', '2.57'],
  ['2002-07-01', '2.47'],
  ['2003-01-01', '1.97'],
  ['2003-07-01', '1.22'],
  ['2004-01-01', '1.14'],
  ['2004-07-01', '1.13'],
  ['2005-01-01', '1.21'],
  ['2005-07-01', '1.17'],
  ['2006-01-01', '1.37'],
  ['2006-07-01', '1.95'],
  ['2007-01-01', '2.70'],
  ['2007-07-01', '3.19'],
  ['2008-01-01', '3.32'],
  ['2008-07-01', '3.19'],
  ['2009-01-01', '1.62'],
  ['2009-07-01', '0.12'],
  ['2010-01-01', '0.12'],
  ['2010-07-01', '0.12'],
  ['2011-01-01', '0.12'],
  ['2011-07-01', '0.37'],
  ['2012-01-01', '0.12'],
  ['2012-07-01', '0.12'],
  ['2013-01-01', '-0.13'],
  ['2013-07-01', '-0.38'],
  ['2014-01-01', '-0.63'],
  ['2014-07-01', '-0.73'],
  ['2015-01-01', '-0.83'],
  ['2015-07-01', '-0.83'],
  ['2016-01-01', '-0.83'],
  ['2016-07-01', '-0.88'],
  ['2017-01-01', '-0.88'],
  ['2017-07-01', '-0.88'],
  ['2018-01-01', '-0.88'],
  ['2018-07-01', '-0.88'],
  ['2019-01-01', '-0.88'],
  ['2019-07-01', '-0.88'],
  ['2020-01-01', '-0.88'],
  ['2020-07-01', '-0.88'],
  ['2021-01-01', '-0.88'],
  ['2021-07-01', '-0.88'],
  ['2022-01-01', '-0.88'],
  ['2022-07-01', '-0.88'],
  ['2023-01-01', '1.62'],
  ['2023-07-01', '3.12'],
  ['2024-01-01', '3.62'],
  ['2024-07-01', '3.37'],
  ['2025-01-01', '2.27'],
  ['2025-07-01', '1.27'],
  ['2026-01-01', '1.27'],
];

export class DefaultInterest1764100000000 implements MigrationInterface {
  name = 'DefaultInterest1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE base_interest_rates (
        valid_from date PRIMARY KEY CHECK (extract(day FROM valid_from) = 1 AND extract(month FROM valid_from) IN (1, 7)),
        rate numeric(5,2) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `INSERT INTO base_interest_rates (valid_from, rate) SELECT d::date, r::numeric FROM unnest($1::text[], $2::text[]) AS t(d, r)`,
      [BASE_RATES.map(([d]) => d), BASE_RATES.map(([, r]) => r)],
    );
    await q.query(
      `ALTER TABLE invoices ADD COLUMN default_interest numeric(14,2) NOT NULL DEFAULT 0, ADD COLUMN flat_fee numeric(14,2) NOT NULL DEFAULT 0`,
    );
    await q.query(`ALTER TABLE invoices DROP CONSTRAINT invoices_open_amount_check`);
    await q.query(`
      ALTER TABLE invoices ADD CONSTRAINT invoices_open_amount_check
        CHECK (open_amount = original_total + reminder_fees + default_interest + flat_fee - paid_amount - waived_amount)`);
    // The interest line of a reminder covers the days interest_from … interest_until (both included) at
    // interest_points above the base rate of each day.
    await q.query(`
      ALTER TABLE reminders
        ADD COLUMN default_interest numeric(14,2) NOT NULL DEFAULT 0,
        ADD COLUMN interest_from date,
        ADD COLUMN interest_until date,
        ADD COLUMN interest_points numeric(4,2),
        ADD COLUMN flat_fee numeric(14,2) NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE reminders DROP COLUMN default_interest, DROP COLUMN interest_from, DROP COLUMN interest_until, DROP COLUMN interest_points, DROP COLUMN flat_fee`,
    );
    await q.query(`ALTER TABLE invoices DROP CONSTRAINT invoices_open_amount_check`);
    await q.query(`ALTER TABLE invoices DROP COLUMN default_interest, DROP COLUMN flat_fee`);
    await q.query(
      `ALTER TABLE invoices ADD CONSTRAINT invoices_open_amount_check CHECK (open_amount = original_total + reminder_fees - paid_amount - waived_amount)`,
    );
    await q.query(`DROP TABLE base_interest_rates`);
  }
}
