// Builds the statement of claim's view model from an invoice's records: every charge at its date, every
// payment with its allocation by § 367 (1) BGB — costs first, then interest, then the principal, each
// payment settling what was owed on its date — and the running balance. Pure, so it is tested by hand.
import { Decimal } from '../../common/money.js';
import { addDays } from '../../common/calendar-date.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import type { InterestLine } from '../../invoices/interest/interest-line.js';
import type { Payment } from '../../invoices/payment.entity.js';
import type { Reminder } from '../../invoices/reminder.entity.js';
import { SETTLEMENT_ORDER } from '../../invoices/ledger/money.js';
import type { LetterSender } from '../../letters/letter.js';
import { CLAIM } from '../../letters/messages.de.js';
import type { ClaimRow, StatementOfClaim } from '../../letters/statement-of-claim.js';

export interface ClaimRecords {
  invoice: Invoice;
  /** The number the letters name the invoice by. */
  number: string;
  sender: LetterSender;
  debtor: { name: string; address: string[] };
  /** Only reminders that were booked (dispatched) carry charges, interest lines included. */
  reminders: Reminder[];
  payments: Payment[];
  interestLines: InterestLine[];
  /** Per reminder stage: its title and the policy's fee (for a fee credited against the flat fee). */
  stages: Array<{ title: string; fee: string }>;
  madeOn: string;
}

type Bucket = 'principal' | 'costs' | 'interest';
interface Entry {
  date: string;
  /** Charges of a day come before its payments (interest counts them the same way). */
  order: number;
  text: string;
  detail?: string;
  amount: Decimal;
  bucket: Bucket | 'payment';
}

/** A payment's shares by § 367 (1) BGB, as decimal strings. */
export interface PaymentAllocation {
  date: string;
  amount: string;
  costs: string;
  interest: string;
  principal: string;
}

/** The part of the records that settles payments: charges and payments in date order. */
export type SettlementRecords = Pick<ClaimRecords, 'invoice' | 'reminders' | 'payments' | 'interestLines' | 'stages' | 'madeOn'>;

/** Each payment's allocation, in date order (the reminder letter prints them). */
export function paymentAllocations(records: SettlementRecords): PaymentAllocation[] {
  return settle(records).allocations;
}

export function assembleStatement(records: ClaimRecords): StatementOfClaim {
  const { r, rows, open, balance } = settle(records);
  const last = r.interestLines.filter((line) => line.kind === 'interest').at(-1);
  return {
    creditor: { name: records.sender.name, address: records.sender.address, bank: records.sender.bank, legal: records.sender.legal },
    debtor: records.debtor,
    madeOn: r.madeOn,
    invoice: { number: records.number, date: r.invoice.invoiceDate, dueDate: r.invoice.dueDate, description: null },
    rows,
    open: {
      principal: open.principal.toFixed(2),
      costs: open.costs.toFixed(2),
      interest: open.interest.toFixed(2),
      total: balance.toFixed(2),
    },
    continuing:
      last && open.principal.greaterThan(0)
        ? { baseRate: last.baseRate, points: last.points, principal: open.principal.toFixed(2), since: addDays(latestUntil(r), 1) }
        : null,
  };
}

function settle(records: SettlementRecords) {
  // Interest of a reminder not yet booked (waiting for approval, not dispatched) is not owed yet.
  const booked = new Set(records.reminders.filter((x) => x.dispatchedAt !== null).map((x) => x.id));
  const r = { ...records, interestLines: records.interestLines.filter((l) => l.reminderId === null || booked.has(l.reminderId)) };
  const entries = [...chargeEntries(r), ...r.payments.map(paymentEntry)].sort((a, b) => a.date.localeCompare(b.date) || a.order - b.order);
  const open: Record<Bucket, Decimal> = { principal: new Decimal(0), costs: new Decimal(0), interest: new Decimal(0) };
  const allocations: PaymentAllocation[] = [];
  let balance = new Decimal(0);
  const rows: ClaimRow[] = entries.map((entry) => {
    balance = balance.plus(entry.amount);
    if (entry.bucket !== 'payment') {
      open[entry.bucket] = open[entry.bucket].plus(entry.amount);
      return row(entry, balance);
    }
    // § 367 (1) BGB in the ledger's order (SETTLEMENT_ORDER): costs, then interest; the rest to the principal.
    let rest = entry.amount.negated();
    const shares = { costs: '0.00', interest: '0.00' };
    for (const { name } of SETTLEMENT_ORDER) {
      const paid = Decimal.max(0, Decimal.min(open[name], rest));
      open[name] = open[name].minus(paid);
      rest = rest.minus(paid);
      shares[name] = paid.toFixed(2);
    }
    open.principal = open.principal.minus(rest);
    const { costs, interest } = shares;
    const principal = rest.toFixed(2);
    allocations.push({ date: entry.date, amount: entry.amount.negated().toFixed(2), costs, interest, principal });
    return row({ ...entry, detail: CLAIM.allocation(costs, interest, principal) }, balance);
  });
  return { r, rows, open, balance, allocations };
}

function chargeEntries(r: SettlementRecords): Entry[] {
  const { invoice } = r;
  const entries: Entry[] = [
    {
      date: invoice.invoiceDate ?? invoice.dueDate ?? r.madeOn,
      order: 0,
      text: CLAIM.principal,
      amount: new Decimal(invoice.originalTotal),
      bucket: 'principal',
    },
  ];
  const booked = r.reminders.filter((reminder) => reminder.dispatchedAt !== null);
  const flatFeeFrom = booked.filter((reminder) => new Decimal(reminder.flatFee).greaterThan(0)).map((x) => x.reminderDate)[0];
  for (const reminder of booked) {
    const stage = r.stages[reminder.reminderStage - 1] ?? { title: CLAIM.stage(reminder.reminderStage), fee: '0' };
    const at = (text: string, amount: Decimal.Value): Entry => ({
      date: reminder.reminderDate,
      order: 1,
      text,
      amount: new Decimal(amount),
      bucket: 'costs',
    });
    if (new Decimal(reminder.fees).greaterThan(0)) entries.push(at(CLAIM.fee(stage.title), reminder.fees));
    if (new Decimal(reminder.flatFee).greaterThan(0)) entries.push(at(CLAIM.flatFee, reminder.flatFee));
    // § 288 (5) sentence 3 BGB: once the flat fee is charged, the level's fee is credited against it.
    const credited =
      !invoice.ignoreReminderFees &&
      flatFeeFrom !== undefined &&
      reminder.reminderDate >= flatFeeFrom &&
      new Decimal(reminder.fees).isZero() &&
      new Decimal(stage.fee).greaterThan(0);
    if (credited) entries.push(at(CLAIM.feeCredited(stage.title, stage.fee), 0));
  }
  for (const line of r.interestLines) {
    entries.push({
      date: line.until,
      order: 2,
      text: CLAIM.interest(line),
      detail: CLAIM.interestDetail(line),
      amount: new Decimal(line.amount),
      bucket: 'interest',
    });
  }
  return entries;
}

function paymentEntry(payment: Payment): Entry {
  return {
    date: payment.paymentDate,
    order: 3,
    text: CLAIM.payment(payment.paymentDate),
    amount: new Decimal(payment.amount).negated(),
    bucket: 'payment',
  };
}

function row(entry: Entry, balance: Decimal): ClaimRow {
  return {
    date: entry.date,
    text: entry.text,
    ...(entry.detail ? { detail: entry.detail } : {}),
    amount: entry.amount.toFixed(2),
    balance: balance.toFixed(2),
  };
}

function latestUntil(r: SettlementRecords): string {
  return r.interestLines.reduce((latest, line) => (line.until > latest ? line.until : latest), r.interestLines[0].until);
}
