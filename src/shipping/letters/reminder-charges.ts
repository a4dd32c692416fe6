// The amounts a reminder states and how each came about: the invoice, the reminder fees, the § 288 (5)
// flat fee and a fee credited against it, one line per interest period (principal, rate, period, days),
// payments and waived rests, and the open amount — the same rows for the letter's table and the e-mail.
import { Decimal } from '../../common/money.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import type { InterestLine } from '../../invoices/interest/interest-line.js';
import type { Reminder } from '../../invoices/reminder.entity.js';
import { formatEuroDe } from '../../letters/german-format.js';
import type { AmountRow } from '../../letters/letter.js';
import { CLAIM, interestLineLabel, LABEL, LETTER } from '../../letters/messages.de.js';
import type { Payment } from '../../invoices/payment.entity.js';
import { paymentAllocations } from './statement-of-claim.assembler.js';

/** The reminder's charges are on the invoice once the reminder was dispatched; before that they are added here. */
export function amountsOf(invoice: Invoice, reminder: Reminder | null) {
  const pending = reminder && !reminder.dispatchedAt;
  const pendingOf = (value: string | undefined) => (pending ? new Decimal(value ?? 0) : new Decimal(0));
  const fees = new Decimal(invoice.reminderFees).plus(pendingOf(reminder?.fees));
  const flatFee = new Decimal(invoice.flatFee ?? 0).plus(pendingOf(reminder?.flatFee));
  const interest = new Decimal(invoice.defaultInterest ?? 0).plus(pendingOf(reminder?.defaultInterest));
  const pendingAll = pendingOf(reminder?.fees).plus(pendingOf(reminder?.flatFee)).plus(pendingOf(reminder?.defaultInterest));
  return {
    principal: new Decimal(invoice.originalTotal),
    fees,
    flatFee,
    interest,
    paid: new Decimal(invoice.paidAmount),
    waived: new Decimal(invoice.waivedAmount ?? 0),
    open: new Decimal(invoice.openAmount).plus(pendingAll),
  };
}

export interface ChargeInputs {
  invoice: Invoice;
  reminder: Reminder;
  /** The level's fee by the policy: what the reminder would have charged without the flat fee. */
  levelFee: string;
  /** The number the letter names the invoice by. */
  number: string;
  /** The invoice's interest lines (InterestLines.forInvoice). */
  interestLines: InterestLine[];
  /** The invoice's payments and reminders, to show each payment with its allocation; without them one row sums the payments. */
  payments?: Payment[];
  reminders?: Reminder[];
}

/**
 * The rows of a reminder, summing to its open amount. Interest lines are those charged up to the
 * reminder's date; should they not add up to the interest the invoice carries (a line the interest
 * store does not hold), the difference is shown as a line of its own rather than dropped.
 */
export function reminderRows(inputs: ChargeInputs): AmountRow[] {
  const { invoice, reminder, levelFee, number, interestLines } = inputs;
  const money = amountsOf(invoice, reminder);
  const lines = interestLines.filter((line) => line.until <= reminder.reminderDate);
  const listed = lines.reduce((sum, line) => sum.plus(line.amount), new Decimal(0));
  const rest = money.interest.minus(listed);
  // § 288 (5) sentence 3 BGB: the flat fee covers the costs of pursuit, so the level's fee was credited against it.
  const credited =
    reminder.reminderStage >= 2 &&
    !invoice.ignoreReminderFees &&
    new Decimal(reminder.fees).isZero() &&
    new Decimal(levelFee).greaterThan(0) &&
    money.flatFee.greaterThan(0);
  return [
    { label: LABEL.invoice(number, invoice.invoiceDate), amount: formatEuroDe(money.principal) },
    ...(money.fees.greaterThan(0) ? [{ label: LABEL.fees, amount: formatEuroDe(money.fees) }] : []),
    ...(money.flatFee.greaterThan(0) ? [{ label: LABEL.flatFee, amount: formatEuroDe(money.flatFee) }] : []),
    ...(credited ? [{ label: LABEL.feeCredited(levelFee), amount: formatEuroDe(0) }] : []),
    ...lines.map((line) => ({ label: interestLineLabel(line), amount: formatEuroDe(line.amount) })),
    ...(rest.isZero() ? [] : [{ label: LABEL.interestOther, amount: formatEuroDe(rest) }]),
    ...paymentRows(inputs, lines, money.paid),
    ...(money.waived.greaterThan(0) ? [{ label: LABEL.waived, amount: formatEuroDe(money.waived.negated()) }] : []),
    { label: LABEL.open, amount: formatEuroDe(money.open), total: true },
  ];
}

/**
 * One row per payment ("Ihre Zahlung vom 13.10.2026"), with its § 367 BGB allocation when it did not all go
 * to the principal; the charges it settles are those booked by its date, this reminder's included.
 */
function paymentRows(inputs: ChargeInputs, lines: InterestLine[], paid: Decimal): AmountRow[] {
  if (paid.isZero()) return [];
  const { invoice, reminder, payments, reminders } = inputs;
  const total = payments?.reduce((sum, p) => sum.plus(p.amount), new Decimal(0));
  if (!payments || !reminders || !total?.equals(paid)) return [{ label: LABEL.paid, amount: formatEuroDe(paid.negated()) }];
  const booked = reminders.map((r) => (r.id === reminder.id ? { ...r, dispatchedAt: r.dispatchedAt ?? new Date(0) } : r));
  const allocations = paymentAllocations({
    invoice,
    reminders: booked,
    payments,
    interestLines: lines,
    stages: [],
    madeOn: reminder.reminderDate,
  });
  return allocations.map((a) => ({
    label: new Decimal(a.principal).equals(a.amount)
      ? LABEL.payment(a.date)
      : `${LABEL.payment(a.date)}, ${CLAIM.allocation(a.costs, a.interest, a.principal)}`,
    amount: formatEuroDe(new Decimal(a.amount).negated()),
  }));
}

/** The rows as plain text for an e-mail: "label: amount" per line, under a heading. */
export function rowsAsText(rows: AmountRow[]): string {
  return [LETTER.chargesHeading, ...rows.map((row) => `${row.label}: ${row.amount}`)].join('\n');
}
