// SQL the push processors need beyond the invoice services: the payment (or credit) a document booked,
// found by the external_id derived from the document. Every method takes the company id.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

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

@Injectable()
export class LedgerRepository {
  /** The entry holding this external_id, whoever booked it (the id is unique per company across all sources). */
  async findByExternalId(companyId: string, externalId: string, manager: EntityManager): Promise<LedgerEntry | undefined> {
    const rows: Array<{ id: string; invoice_id: string; amount: string; payment_date: string; note: string | null; inkasso_payment: boolean; source: string }> =
      await manager.query(
        `SELECT id, invoice_id, amount::text AS amount, payment_date::text AS payment_date, note, inkasso_payment, source
           FROM payments WHERE company_id = $1 AND lower(external_id) = lower($2)`,
        [companyId, externalId],
      );
    const r = rows[0];
    return r && { id: r.id, invoiceId: r.invoice_id, amount: r.amount, paymentDate: r.payment_date, note: r.note, inkassoPayment: r.inkasso_payment, source: r.source };
  }
}
