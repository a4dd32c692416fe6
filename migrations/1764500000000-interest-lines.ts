import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Interest that keeps running and corrects itself (BGB §§ 286, 288, 289, 367):
 * - `reminders.pay_by`: the deadline a reminder set; the day after reminder 1's deadline starts default (§ 286 (1)).
 * - `interest_lines`: every line of default interest charged (by a reminder, or at the hand-over to debt
 *   collection) or corrected (a back-dated payment), each constant in principal and base rate.
 * - `default_interest_days()`: the open principal of every day, with the § 367 allocation of each day's
 *   payments to costs, then interest accrued up to that day, then principal. A loop over days, because
 *   each payment's allocation depends on the interest accrued on what the earlier ones left open.
 */
export class InterestLines1764500000000 implements MigrationInterface {
  name = 'InterestLines1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reminders ADD COLUMN pay_by date`);
    await q.query(`
      UPDATE reminders r SET pay_by = r.reminder_date + coalesce(
        (SELECT (p.policy->'levels'->(r.reminder_stage - 1)->>'paymentTermDays')::int FROM dunning_policies p WHERE p.company_id = r.company_id), 7)`);
    await q.query(`
      CREATE TABLE interest_lines (
        company_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        invoice_id uuid NOT NULL,
        reminder_id uuid,
        kind text NOT NULL CHECK (kind IN ('interest', 'correction')),
        from_day date NOT NULL,
        until_day date NOT NULL CHECK (until_day >= from_day),
        days integer NOT NULL CHECK (days = until_day - from_day + 1),
        principal numeric(14,2) NOT NULL,
        base_rate numeric(5,2) NOT NULL,
        points numeric(4,2) NOT NULL,
        amount numeric(14,2) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, invoice_id) REFERENCES invoices (company_id, id) ON DELETE CASCADE,
        FOREIGN KEY (company_id, reminder_id) REFERENCES reminders (company_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX interest_lines_invoice_idx ON interest_lines (company_id, invoice_id, from_day)`);
    // The interest reminders charged so far, one line each (they were computed day by day; their
    // principal is the original total, as the interim lines showed them).
    await q.query(`
      INSERT INTO interest_lines (company_id, invoice_id, reminder_id, kind, from_day, until_day, days, principal, base_rate, points, amount)
      SELECT r.company_id, r.invoice_id, r.id, 'interest', r.interest_from, r.interest_until, r.interest_until - r.interest_from + 1,
             i.original_total,
             coalesce((SELECT b.rate FROM base_interest_rates b WHERE b.valid_from <= r.interest_from ORDER BY b.valid_from DESC LIMIT 1), 0),
             r.interest_points, r.default_interest
        FROM reminders r JOIN invoices i ON i.company_id = r.company_id AND i.id = r.invoice_id
       WHERE r.default_interest <> 0 AND r.interest_from IS NOT NULL`);
    await q.query(`
      CREATE FUNCTION default_interest_days(p_company uuid, p_invoice uuid, p_since date, p_until date, p_points numeric)
      RETURNS TABLE (day date, principal numeric, base_rate numeric, interest numeric,
                     to_costs numeric, to_interest numeric, to_principal numeric, surplus numeric)
      LANGUAGE plpgsql STABLE AS $fn$
      DECLARE
        v_total numeric;
        v_day date;
        v_pay numeric;
        v_rest numeric;
        v_costs numeric;
        v_costs_paid numeric := 0;
        v_interest_paid numeric := 0;
        v_principal_paid numeric := 0;
        v_accrued numeric := 0;
        v_rate numeric;
        v_days date[];
        v_amounts numeric[];
        v_next integer := 1;
      BEGIN
        SELECT i.original_total INTO v_total FROM invoices i WHERE i.company_id = p_company AND i.id = p_invoice;
        -- The payments by day, read once; the loop walks them along.
        SELECT array_agg(t.payment_date ORDER BY t.payment_date), array_agg(t.amount ORDER BY t.payment_date) INTO v_days, v_amounts
          FROM (SELECT p.payment_date, sum(p.amount) AS amount FROM payments p
                 WHERE p.company_id = p_company AND p.invoice_id = p_invoice GROUP BY p.payment_date) t;
        v_day := least(p_since, v_days[1]);
        IF v_total IS NULL OR v_day IS NULL THEN RETURN; END IF;
        WHILE v_day <= p_until LOOP
          v_pay := 0;
          IF v_next <= coalesce(array_length(v_days, 1), 0) AND v_days[v_next] = v_day THEN
            v_pay := v_amounts[v_next];
            v_next := v_next + 1;
          END IF;
          to_costs := 0; to_interest := 0; to_principal := 0; surplus := 0;
          IF v_pay > 0 THEN
            SELECT coalesce(sum(r.fees + r.flat_fee), 0) INTO v_costs FROM reminders r
             WHERE r.company_id = p_company AND r.invoice_id = p_invoice AND r.dispatched_at IS NOT NULL AND r.reminder_date <= v_day;
            v_rest := v_pay;
            to_costs := least(v_rest, greatest(0, v_costs - v_costs_paid));
            v_rest := v_rest - to_costs;
            to_interest := least(v_rest, greatest(0, round(v_accrued, 2) - v_interest_paid));
            v_rest := v_rest - to_interest;
            to_principal := least(v_rest, v_total - v_principal_paid);
            surplus := v_rest - to_principal;
          ELSIF v_pay < 0 THEN
            to_principal := greatest(v_pay, -v_principal_paid);
            surplus := v_pay - to_principal;
          END IF;
          v_costs_paid := v_costs_paid + to_costs;
          v_interest_paid := v_interest_paid + to_interest;
          v_principal_paid := v_principal_paid + to_principal;
          IF v_rate IS NULL OR (extract(day FROM v_day) = 1 AND extract(month FROM v_day) IN (1, 7)) THEN
            v_rate := coalesce((SELECT b.rate FROM base_interest_rates b WHERE b.valid_from <= v_day ORDER BY b.valid_from DESC LIMIT 1), 0);
          END IF;
          day := v_day;
          principal := v_total - v_principal_paid;
          base_rate := v_rate;
          interest := CASE WHEN p_since IS NOT NULL AND v_day >= p_since THEN principal * (v_rate + p_points) / 36500 ELSE 0 END;
          v_accrued := v_accrued + interest;
          RETURN NEXT;
          v_day := v_day + 1;
        END LOOP;
      END
      $fn$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION default_interest_days(uuid, uuid, date, date, numeric)`);
    await q.query(`DROP TABLE interest_lines`);
    await q.query(`ALTER TABLE reminders DROP COLUMN pay_by`);
  }
}
