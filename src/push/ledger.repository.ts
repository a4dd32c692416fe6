// SQL the push processors need beyond the invoice services: the payment (or credit) a document booked,
// found by the external_id derived from the document. Every method takes the company id.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';

export interface LedgerEntry {
  id: string;
  invoiceId: string;
  amount: string;
  paymentDate: string;
  note: string | null;
  inkassoPayment: boolean;
  /** Who booked it: PUSH, CREDIT_MEMO (both push), API (REST), ERP (the pull), … */
  source: string;
}

/** What booking one document needs to know first: its invoice (by external_id) and the entry holding its external_id. */
export interface LedgerLookup {
  invoiceId: string | null;
  entry: LedgerEntry | null;
}

type EntryRow = { id: string; invoice_id: string; amount: string; payment_date: string; note: string | null; inkasso_payment: boolean; source: string };
const toEntry = (r: EntryRow): LedgerEntry => ({
  id: r.id, invoiceId: r.invoice_id, amount: r.amount, paymentDate: r.payment_date, note: r.note, inkassoPayment: r.inkasso_payment, source: r.source,
});

/** Per wanted booking: its invoice by external_id and the entry holding its external_id; answers by position (n). */
const LOOKUP_MANY = statement<Partial<EntryRow> & { n: string; found_invoice_id: string | null }>(
  'push.ledger_lookup',
  `SELECT t.n, i.id AS found_invoice_id,
          p.id, p.invoice_id, p.amount::text AS amount, p.payment_date::text AS payment_date, p.note, p.inkasso_payment, p.source
     FROM unnest($1::uuid[], $2::text[], $3::text[]) WITH ORDINALITY AS t(company_id, invoice_external_id, entry_external_id, n)
     LEFT JOIN invoices i ON i.company_id = t.company_id AND lower(i.external_id) = lower(t.invoice_external_id)
     LEFT JOIN payments p ON p.company_id = t.company_id AND lower(p.external_id) = lower(t.entry_external_id)`,
);
const FIND_BY_EXTERNAL_ID = statement<EntryRow>(
  'push.ledger_entry_by_external_id',
  `SELECT id, invoice_id, amount::text AS amount, payment_date::text AS payment_date, note, inkasso_payment, source
     FROM payments WHERE company_id = $1 AND lower(external_id) = lower($2)`,
);

@Injectable()
export class LedgerRepository {
  constructor(private readonly sql: Sql) {}

  /** lookup() for many bookings in one statement (a batch of the push worker); answers in the order of `wanted`. */
  async lookupMany(wanted: Array<{ companyId: string; invoiceExternalId: string; entryExternalId: string }>, manager: EntityManager): Promise<LedgerLookup[]> {
    if (wanted.length === 0) return [];
    const rows = await this.sql.rows(LOOKUP_MANY, [wanted.map((w) => w.companyId), wanted.map((w) => w.invoiceExternalId), wanted.map((w) => w.entryExternalId)], manager);
    const byN = new Map(rows.map((r) => [Number(r.n), r]));
    return wanted.map((_, i) => {
      const r = byN.get(i + 1);
      return { invoiceId: r?.found_invoice_id ?? null, entry: r?.id ? toEntry(r as EntryRow) : null };
    });
  }

  /** The entry holding this external_id, whoever booked it (the id is unique per company across all sources). */
  async findByExternalId(companyId: string, externalId: string, manager: EntityManager): Promise<LedgerEntry | undefined> {
    const row = await this.sql.first(FIND_BY_EXTERNAL_ID, [companyId, externalId], manager);
    return row && toEntry(row);
  }
}
