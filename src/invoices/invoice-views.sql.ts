// What an invoice response shows (the invoice, its customer and contact, payments, reminders and interest
// state) in ONE statement for a GET by id and one for a page, instead of six and seven round trips (the
// invoice, then customer, contact, payments, reminders and interest side by side, four of them through
// TypeORM's find with its hydration). Speed trick with its measured reason: README, "Performance"
// (invoices-read bench). The children travel as JSON (entityJson; the customer and contact as arrays of
// the fields their references show, entityTuple); the rules stay where they are: the
// interest state is interest.sql.ts's, the list's filters are the repository's listWhere.
import { Contact } from '../contacts/contact.entity.js';
import { CONTACT_REFERENCE_FIELDS } from '../contacts/contact.serializer.js';
import { Customer } from '../customers/customer.entity.js';
import { CUSTOMER_REFERENCE_FIELDS } from '../customers/customer.serializer.js';
import { entityJson, entityTuple } from '../database/sql/entity-json.js';
import { statement, statementFamily } from '../database/sql/statement.js';
import { interestStateColumns, interestStateJoins } from './interest/interest.sql.js';
import { invoiceSelect } from './invoice-columns.js';
import type { Invoice } from './invoice.entity.js';
import { LIST_FILTERS, type ListFilter, listWhere } from './invoices.repository.js';
import { Payment } from './payment.entity.js';
import { Reminder } from './reminder.entity.js';

/** One row: the invoice's columns and, under `$` names, what InvoiceViews adds to it. */
export interface InvoiceViewRow extends Invoice {
  $customer: unknown;
  $contact: unknown;
  $payments: unknown[];
  $reminders: unknown[];
  $defaultSince: string | null;
  $accrued: string;
}

/** The view's columns over the invoice `i` and its customer `c` (and the interest state's laterals). */
const VIEW = () => `SELECT ${invoiceSelect('i')}, ${entityTuple(Customer, 'c', CUSTOMER_REFERENCE_FIELDS)} AS "$customer",
       (SELECT ${entityTuple(Contact, 'ct', CONTACT_REFERENCE_FIELDS)} FROM contacts ct WHERE ct.company_id = i.company_id AND ct.id = i.contact_id) AS "$contact",
       (SELECT coalesce(json_agg(${entityJson(Payment, 'p')} ORDER BY p.created_at ASC, p.id ASC), '[]')
          FROM payments p WHERE p.company_id = i.company_id AND p.invoice_id = i.id) AS "$payments",
       (SELECT coalesce(json_agg(${entityJson(Reminder, 'r')} ORDER BY r.reminder_stage ASC), '[]')
          FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id) AS "$reminders",
       ${interestStateColumns('$defaultSince', '$accrued')}`;
const JOINS = `JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
  ${interestStateJoins('NULL::date')}`;

export const VIEW_BY_ID = statement<InvoiceViewRow>(
  'invoices.view_by_id',
  () => `${VIEW()}
  FROM invoices i ${JOINS}
 WHERE i.company_id = $1 AND i.id = $2`,
);

/** The same view found by external_id (case-insensitive, as the unique index has it). */
export const VIEW_BY_EXTERNAL_ID = statement<InvoiceViewRow>(
  'invoices.view_by_external_id',
  () => `${VIEW()}
  FROM invoices i ${JOINS}
 WHERE i.company_id = $1 AND lower(i.external_id) = lower($2)`,
);

/**
 * A page of the list, oldest first. The page is cut first (ids only, in `cut`), so the customer,
 * payments, reminders and interest are read for the page's rows, not for every row the OFFSET skips. The
 * count of the filtered list comes along only when the page is full (a CASE runs its subquery only when
 * reached): then the page cannot tell the total.
 */
export const VIEW_PAGE = statementFamily<ListFilter, InvoiceViewRow & { $total: string | null }>(
  'invoices.view_page',
  (f) => {
    const { where, next } = listWhere(f);
    return `WITH cut AS (SELECT i.company_id, i.id FROM invoices i WHERE ${where} ORDER BY i.created_at ASC, i.id ASC LIMIT $${next} OFFSET $${next + 1})
${VIEW()},
       CASE WHEN (SELECT count(*) FROM cut) = $${next} THEN (SELECT count(*) FROM invoices i WHERE ${where}) END AS "$total"
  FROM cut JOIN invoices i ON i.company_id = cut.company_id AND i.id = cut.id ${JOINS}
 ORDER BY i.created_at ASC, i.id ASC`;
  },
  LIST_FILTERS,
);
