// SQL of the exception pages: invoices blocked for dunning (the dunning run's own rule, BLOCKED), and
// what a shipment's row shows of its invoice, reminder, customer and contact. Scoped by the company.
import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../../common/pagination.js';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import { BLOCKED } from '../../dunning/dunning-run.repository.js';
import { OPEN_STATUSES } from '../../invoices/invoice-status.js';
import type { InvoiceStatus } from '../../invoices/invoice-status.js';

export interface BlockedInvoice {
  id: string;
  invoiceNumber: string | null;
  status: InvoiceStatus;
  openAmount: string;
  customerId: string;
  customerName: string;
  /** The invoice's block reason; null when only the customer's automatic reminders are switched off. */
  reason: string | null;
  /** YYYY-MM-DD, inclusive; null: until lifted. */
  until: string | null;
  total: number;
}

/** What a row of the shipments page shows of the document's parties. */
export interface ShipmentParties {
  invoiceId: string;
  invoiceNumber: string | null;
  reminderId: string | null;
  reminderStage: number | null;
  customerId: string;
  customerName: string;
  addressLine1: string;
  addressLine2: string | null;
  addressLine3: string;
  addressLine4: string | null;
  zip: string;
  city: string;
  countryCode: string;
  /** The invoice's contact, else the customer's first contact (whose e-mail address the form corrects). */
  contactId: string | null;
  contactName: string | null;
  contactEmail: string | null;
}

// An invoice block that has ended leaves the reason in place; the run ignores it, and so does this list.
const BLOCKED_PAGE = statement<BlockedInvoice>(
  'web_exceptions.blocked_page',
  `SELECT i.id, i.invoice_number AS "invoiceNumber", i.status, i.open_amount::text AS "openAmount", c.id AS "customerId", c.name AS "customerName",
          CASE WHEN i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $3::date)
               THEN i.dunning_block_reason END AS reason,
          CASE WHEN i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $3::date)
               THEN to_char(i.dunning_block_until, 'YYYY-MM-DD') END AS until,
          count(*) OVER ()::int AS total
     FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
    WHERE i.company_id = $1 AND i.status = ANY($2::text[]) AND ${BLOCKED}
    ORDER BY i.dunning_block_until NULLS LAST, i.due_date, i.id
    LIMIT $4 OFFSET $5`,
);

const SHIPMENT_PARTIES = statement<ShipmentParties>(
  'web_exceptions.shipment_parties',
  `SELECT i.id AS "invoiceId", i.invoice_number AS "invoiceNumber", r.id AS "reminderId", r.reminder_stage AS "reminderStage",
          c.id AS "customerId", c.name AS "customerName", c.address_line1 AS "addressLine1", c.address_line2 AS "addressLine2",
          c.address_line3 AS "addressLine3", c.address_line4 AS "addressLine4", c.zip, c.city, c.country_code AS "countryCode",
          p.id AS "contactId", p.name AS "contactName", p.email AS "contactEmail"
     FROM unnest($2::uuid[], $3::uuid[]) AS s(invoice_id, reminder_id)
     JOIN invoices i ON i.company_id = $1 AND i.id = s.invoice_id
     JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
     LEFT JOIN reminders r ON r.company_id = i.company_id AND r.invoice_id = i.id AND r.id = s.reminder_id
     LEFT JOIN LATERAL (
       SELECT k.id, k.name, k.email FROM contacts k
        WHERE k.company_id = i.company_id AND k.customer_id = i.customer_id
        ORDER BY k.id = i.contact_id DESC NULLS LAST, k.created_at, k.id LIMIT 1) p ON true`,
);

@Injectable()
export class ExceptionsRepository {
  constructor(private readonly sql: Sql) {}

  /** Open invoices the dunning run skips on `today` (YYYY-MM-DD): blocked themselves, or their customer's reminders stopped. */
  async blocked(companyId: string, today: string, page: PageRequest): Promise<{ invoices: BlockedInvoice[]; total: number }> {
    const invoices = await this.sql.rows(BLOCKED_PAGE, [companyId, OPEN_STATUSES, today, page.perPage, page.offset]);
    return { invoices, total: invoices[0]?.total ?? 0 };
  }

  /** The parties of each document (invoice, or reminder of it), keyed `invoiceId/reminderId`. */
  async parties(
    companyId: string,
    documents: Array<{ invoiceId: string; reminderId: string | null }>,
  ): Promise<Map<string, ShipmentParties>> {
    if (documents.length === 0) return new Map();
    const rows = await this.sql.rows(SHIPMENT_PARTIES, [companyId, documents.map((d) => d.invoiceId), documents.map((d) => d.reminderId)]);
    return new Map(rows.map((row) => [documentKey(row.invoiceId, row.reminderId), row]));
  }
}

export const documentKey = (invoiceId: string, reminderId: string | null) => `${invoiceId}/${reminderId ?? ''}`;
