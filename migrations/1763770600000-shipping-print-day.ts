import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The print batch a shipment's letter belongs to, fixed at its first post attempt: a retry after
 * midnight (or after a send whose outcome was not recorded) goes into the same day's batch, where the
 * provider recognises the letter, instead of a second print in the next day's batch.
 */
export class ShippingPrintDay1763770600000 implements MigrationInterface {
  name = 'ShippingPrintDay1763770600000';

  async up(q: QueryRunner): Promise<void> {
    // The company's calendar day as YYYY-MM-DD (text: read back exactly as written, no time zone involved).
    await q.query(`ALTER TABLE shipments ADD COLUMN print_day text CHECK (print_day ~ '^\\d{4}-\\d{2}-\\d{2}$')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE shipments DROP COLUMN print_day`);
  }
}
