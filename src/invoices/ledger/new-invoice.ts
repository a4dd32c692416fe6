// The record of a new invoice, built in one place: the REST intake, the push processor and the ERP
// pull's set-based INSERT all start from the same defaults (status, money from the money rule, no
// shipping mode, reminder fees charged). The TypeScript builder and the pull's SQL column list come
// from the same definition.
import type { Decimal } from '../../common/money.js';
import { invoiceColumns } from '../invoice-columns.js';
import type { Invoice } from '../invoice.entity.js';
import type { InvoiceStatus } from '../invoice-status.js';
import { MONEY_TERMS, moneyFields, openAmountSql } from './money.js';

export type InvoiceValues = Omit<Invoice, 'companyId' | 'id' | 'createdAt' | 'updatedAt'>;

type MoneyProperty = 'originalTotal' | 'reminderFees' | 'defaultInterest' | 'flatFee' | 'paidAmount' | 'waivedAmount' | 'openAmount';

/** What a caller says about a new invoice; the money follows from `total`, the rest defaults. */
export type NewInvoice = Partial<Omit<InvoiceValues, MoneyProperty>> &
  Pick<InvoiceValues, 'customerId' | 'source'> & { total: Decimal.Value };

/** The defaults of a new invoice that are not null, as values and as SQL. */
const DEFAULTS: ReadonlyArray<{ property: keyof InvoiceValues; value: unknown; sql: string }> = [
  // A new invoice waits for its release (the pull's enter as sent: the ERP has sent them).
  { property: 'status', value: 'draft' satisfies InvoiceStatus, sql: `'draft'` },
  { property: 'ignoreReminderFees', value: false, sql: 'false' },
  // A pulled invoice has no PDF of its own; a rendered one has no active content.
  { property: 'pdfActiveContent', value: false, sql: 'false' },
  { property: 'attachmentActiveContent', value: false, sql: 'false' },
];

/** A new invoice's row values (without company, id and timestamps). */
export function newInvoice(input: NewInvoice): InvoiceValues {
  const { total, ...given } = input;
  const own = invoiceColumns().filter((c) => !['companyId', 'id', 'createdAt', 'updatedAt'].includes(c.property));
  const nulls = Object.fromEntries(own.map((c) => [c.property, null]));
  const defaults = Object.fromEntries(DEFAULTS.map((d) => [d.property, d.value]));
  return { ...nulls, ...defaults, ...given, ...moneyFields({ originalTotal: total, reminderFees: 0, paidAmount: 0 }) } as InvoiceValues;
}

/**
 * A new invoice's column list and SQL values for a set-based INSERT … SELECT: the given expressions
 * (by property; `total` is the original total's), the defaults and the money of the money rule for
 * the rest that is not null. Columns in the entity's order.
 */
export function newInvoiceSql(given: Partial<Record<keyof Invoice, string>> & { total: string }): { columns: string; values: string } {
  const { total, ...rest } = given;
  const zero = Object.fromEntries(MONEY_TERMS.map((t) => [t.part, '0']));
  const money: Partial<Record<keyof Invoice, string>> = {
    ...Object.fromEntries(MONEY_TERMS.map((t) => [t.part, t.part === 'originalTotal' ? total : '0'])),
    openAmount: openAmountSql('', { ...zero, originalTotal: total }),
  };
  const defaults = Object.fromEntries(DEFAULTS.map((d) => [d.property, d.sql]));
  const chosen = invoiceColumns()
    .map((c) => ({ ...c, sql: (rest as Record<string, string | undefined>)[c.property] ?? money[c.property] ?? defaults[c.property] }))
    .filter((c) => c.sql !== undefined);
  return { columns: chosen.map((c) => c.column).join(', '), values: chosen.map((c) => c.sql).join(', ') };
}
