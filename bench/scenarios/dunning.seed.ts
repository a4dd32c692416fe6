// Seeds the dunning bench with SQL: 100 companies, 100 customers each, 10,000 open invoices each
// (1,000,000 in all), spread over the statuses the run moves, with the reminders those statuses imply.
import type pg from 'pg';

export const COMPANIES = 100;
export const INVOICES_PER_COMPANY = 10_000;
export const BUSINESS_DATE = '2026-12-01';

/** Company n's id: readable in the database, the same on every run. */
export const companyId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export async function seed(db: pg.Client): Promise<void> {
  await db.query(`
    INSERT INTO companies (id, name)
    SELECT ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'Bench ' || n FROM generate_series(1, ${COMPANIES}) n`);
  // Approval mode: the run decides transitions only, like the hand-written statement it is compared with.
  await db.query(`
    INSERT INTO dunning_policies (company_id, policy)
    SELECT id, jsonb_build_object(
      'levels', jsonb_build_array(
        jsonb_build_object('waitDays', 7, 'fee', '0.00', 'minimumOpen', '0.01', 'paymentTermDays', 7, 'text', 'R1'),
        jsonb_build_object('waitDays', 14, 'fee', '2.50', 'minimumOpen', '0.01', 'paymentTermDays', 7, 'text', 'R2'),
        jsonb_build_object('waitDays', 14, 'fee', '2.50', 'minimumOpen', '0.01', 'paymentTermDays', 7, 'text', 'R3')),
      'graceDays', 0, 'collectionDays', 14, 'autoShip', false, 'runAt', '06:00', 'waiveRemainder', true)
    FROM companies`);
  await db.query(`
    INSERT INTO customers (company_id, id, name, address_line1, address_line3, zip, city, country_code, stop_automatic_reminders)
    SELECT c.id, gen_random_uuid(), 'Kunde ' || k, 'Kunde ' || k, 'Weg ' || k, '10115', 'Berlin', 'DE', k % 50 = 0
      FROM companies c, generate_series(1, 100) k`);
  await db.query(`
    INSERT INTO invoices (company_id, id, customer_id, status, original_total, open_amount, due_date, invoice_date, time_for_payment, source)
    SELECT cu.company_id, gen_random_uuid(), cu.id,
           (ARRAY['sent','sent','sent','sent','due','due','reminder1_sent','reminder2_sent','reminder3_sent','ready_for_reminder1'])[1 + i % 10],
           100, 100, date '${BUSINESS_DATE}' - (i % 60), date '${BUSINESS_DATE}' - (i % 60) - 14, 14, 'API'
      FROM customers cu, generate_series(1, ${INVOICES_PER_COMPANY / 100}) i`);
  // The reminders that reminderN_sent implies, dated so that some are ripe for the next level and some not.
  for (const stage of [1, 2, 3]) {
    await db.query(`
      INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, fees, last_sent_at, dispatched_at)
      SELECT company_id, gen_random_uuid(), id, ${stage}, due_date + 7 * ${stage}, 0, now(), now()
        FROM invoices WHERE status IN (${['reminder1_sent', 'reminder2_sent', 'reminder3_sent']
          .slice(stage - 1)
          .map((s) => `'${s}'`)
          .join(', ')})`);
  }
  await db.query('ANALYZE');
}

/**
 * The same status transitions as one run of every company, as one hand-written statement: the
 * comparison point of the bench (no events, no run record, no reminders).
 */
export const HAND_WRITTEN_RUN = `
  UPDATE invoices i SET status = CASE
      WHEN i.status = 'sent' AND NOT blocked AND date '${BUSINESS_DATE}' - i.due_date >= 7 THEN 'ready_for_reminder1'
      WHEN i.status = 'sent' THEN 'due'
      WHEN i.status = 'due' THEN 'ready_for_reminder1'
      WHEN i.status = 'ready_for_reminder1' THEN 'due'
      WHEN i.status = 'reminder1_sent' THEN 'ready_for_reminder2'
      WHEN i.status = 'reminder2_sent' THEN 'ready_for_reminder3'
      ELSE 'ready_for_dept_collection' END,
    updated_at = now()
  FROM (
    SELECT i2.company_id, i2.id, c.stop_automatic_reminders AS blocked,
           (SELECT max(r.reminder_date) FROM reminders r WHERE r.company_id = i2.company_id AND r.invoice_id = i2.id) AS last_reminder
      FROM invoices i2 JOIN customers c ON c.company_id = i2.company_id AND c.id = i2.customer_id
  ) x
  WHERE i.company_id = x.company_id AND i.id = x.id AND (
       (i.status = 'sent' AND i.due_date < date '${BUSINESS_DATE}')
    OR (i.status = 'due' AND NOT x.blocked AND date '${BUSINESS_DATE}' - i.due_date >= 7 AND i.open_amount >= 0.01)
    OR (i.status IN ('reminder1_sent', 'reminder2_sent') AND NOT x.blocked AND date '${BUSINESS_DATE}' - x.last_reminder >= 14 AND i.open_amount >= 0.01)
    OR (i.status = 'reminder3_sent' AND NOT x.blocked AND date '${BUSINESS_DATE}' - x.last_reminder >= 14)
    OR (i.status = 'ready_for_reminder1' AND x.blocked))`;
