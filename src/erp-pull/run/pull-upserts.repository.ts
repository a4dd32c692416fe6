// The pull's writes, set-based: a batch (a few thousand records) is one statement per table, its
// rows passed as arrays and unnested, upserted by the case-insensitive external_id index with
// INSERT … ON CONFLICT. A row whose values did not change is not touched (so "unchanged" is exact and
// a repeated pull writes nothing). Batches lock their rows in key order (uniqueByKey's), so concurrent
// batches cannot deadlock.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newTimeOrderedUuid } from '../../common/ids.js';
import { Sql } from '../../database/sql/sql.js';
import { PullLedger } from '../../invoices/ledger/pull-ledger.js';
import { type CustomerRow, ERP_CONTACT_PREFIX, type InvoiceRow } from '../mapping/erp-record-mapper.js';
import { boolArray, numberArray, textArray } from './pg-array.js';
import { UPSERT_CONTACTS, UPSERT_CUSTOMERS, UPSERT_INVOICES } from './pull-upsert.statements.js';

/** The ERP's clearing of an item is booked as a payment with this external_id prefix. */
export const CLEARING_PAYMENT_PREFIX = 'ERP-CLEARING-';

export type Outcome = 'created' | 'updated' | 'unchanged';

export type InvoiceOutcome = Outcome | 'missing_customer' | 'cleared_unknown';

/** Keeps the last row per case-insensitive key (ON CONFLICT cannot touch one row twice), in key order. */
export function uniqueByKey<T>(rows: T[], keyOf: (row: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const row of rows) byKey.set(keyOf(row).toLowerCase(), row);
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

export { byExternalId } from './pull-upsert.statements.js';

@Injectable()
export class PullUpsertsRepository {
  constructor(
    private readonly sql: Sql,
    private readonly ledger: PullLedger,
  ) {}

  /** Customers by ERP customer number, then their e-mail contact ("ERP-<number>"). Keys whose customer or contact changed, by outcome. */
  async upsertCustomers(manager: EntityManager, companyId: string, input: CustomerRow[]): Promise<Map<string, Outcome>> {
    const rows = uniqueByKey(input, (r) => r.externalId);
    const col = <K extends keyof CustomerRow>(key: K) => rows.map((r) => r[key]);
    const customers = await this.sql.rows(
      UPSERT_CUSTOMERS,
      [companyId, col('externalId'), col('name'), col('street'), col('zip'), col('city'), col('country'), col('phone'), col('additionalNumber')],
      manager,
    );
    // A second statement: the customers inserted above are not visible to the first one's other parts.
    // The e-mail lives on a contact (customers have none); a removed address clears it.
    const contacts = await this.sql.rows(
      UPSERT_CONTACTS,
      [companyId, col('externalId'), col('name'), col('phone'), col('email'), ERP_CONTACT_PREFIX],
      manager,
    );
    const outcomes = new Map<string, Outcome>(rows.map((r) => [r.externalId.toLowerCase(), 'unchanged']));
    for (const { key } of contacts) if (outcomes.has(key)) outcomes.set(key, 'updated');
    for (const { key, inserted } of customers) outcomes.set(key, inserted ? 'created' : 'updated');
    return outcomes;
  }

  /**
   * Invoices by external_id: open items are created or updated, cleared items only updated (an item
   * cleared before it was ever pulled open is no receivable to collect). New invoices enter the cycle
   * as `sent` (the ERP has sent them) with shipping `skip_shipping` and no PDF; no contact is set (the
   * ERP e-mail contact belongs to the customer, where shipping finds it). Each created or changed
   * invoice gets an event naming the pull run. Returns the outcome of every key that was not
   * unchanged (lower-cased external_id → outcome).
   *
   * One statement, one result row: the rows are sent as array literals and locked in the order they
   * are given (key order), and only the exceptions come back (missing customers and cleared unknowns
   * as positions, created and updated keys as one text), not a row per invoice.
   */
  async upsertInvoices(
    manager: EntityManager,
    companyId: string,
    runId: string,
    owner: { connectionId: string; seenRun: string | null },
    input: InvoiceRow[],
  ): Promise<Map<string, InvoiceOutcome>> {
    const rows = uniqueByKey(input, (r) => r.externalId);
    const outcomes = new Map<string, InvoiceOutcome>();
    if (rows.length === 0) return outcomes;
    const result = await this.sql.one(
      UPSERT_INVOICES,
      [
        companyId,
        runId,
        textArray(rows, (r) => r.externalId),
        textArray(rows, (r) => r.customer),
        textArray(rows, (r) => r.invoiceNumber),
        textArray(rows, (r) => r.additionalNumber),
        textArray(rows, (r) => r.total),
        textArray(rows, (r) => r.invoiceDate),
        textArray(rows, (r) => r.dueDate),
        numberArray(rows, (r) => r.timeForPayment),
        textArray(rows, (r) => r.dunningBlock),
        boolArray(rows, (r) => r.cleared),
        JSON.stringify({ pull_run: runId }),
        owner.connectionId,
        textArray(rows, (r) => r.erpKey),
        owner.seenRun,
        // Ids of new invoices (unused for existing ones): time-ordered, see newTimeOrderedUuid.
        textArray(rows, () => newTimeOrderedUuid()),
      ],
      manager,
    );
    const at = (positions: string | null) => (positions ? positions.split(',').map((n) => rows[Number(n) - 1].externalId.toLowerCase()) : []);
    for (const line of result.written ? result.written.split('\n') : []) outcomes.set(line.slice(1), line[0] === 'n' ? 'created' : 'updated');
    for (const key of at(result.cleared_unknown)) outcomes.set(key, 'cleared_unknown');
    for (const key of at(result.missing)) outcomes.set(key, 'missing_customer');
    return outcomes;
  }

  /**
   * Cleared items: the rest still open on each invoice is booked as one payment (external_id
   * ERP-CLEARING-<clearing document>-<item>, so a repeated pull books nothing twice), by the ledger.
   * Returns the number of payments recorded; settling the invoices is PullTransitionsRepository's.
   */
  async recordClearings(manager: EntityManager, companyId: string, runId: string, cleared: InvoiceRow[]): Promise<number> {
    const clearings = uniqueByKey(cleared, (r) => r.externalId).map((r) => ({ externalId: r.externalId, document: r.clearingDocument, clearedOn: r.clearingDate }));
    return this.ledger.recordClearings(manager, companyId, runId, clearings, CLEARING_PAYMENT_PREFIX);
  }

  /**
   * Items open again in the ERP (its clearing was reset) lose the clearing payments the pull booked.
   * Returns the invoices whose payments were removed.
   */
  removeResetClearings(manager: EntityManager, companyId: string, runId: string, openKeys: string[]): Promise<string[]> {
    return this.ledger.removeClearings(manager, companyId, runId, openKeys, CLEARING_PAYMENT_PREFIX);
  }
}
