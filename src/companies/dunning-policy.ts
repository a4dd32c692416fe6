// A company's dunning policy: German-practice defaults, overridable per company (GET/PUT /api/v1/dunning_policy).
import { REMINDER_TEXTS } from '../letters/messages.de.js';

export interface DunningLevel {
  /** Level 1: days after the due date (plus grace); levels 2–3: days after the previous reminder. */
  waitDays: number;
  /** Fixed fee copied into the reminder when it is issued. */
  fee: string;
  /** Below this open amount the level is not reached. */
  minimumOpen: string;
  /** Days the reminder gives the customer to pay. */
  paymentTermDays: number;
  /** Reminder text; {salutation}, {invoice_number}, {open_amount}, {due_date}, {pay_by} are filled in. */
  text: string;
}

export const DEFAULT_STARTS = ['reminder_deadline', 'thirty_days_business'] as const;
export type DefaultStarts = (typeof DEFAULT_STARTS)[number];

export interface DunningPolicy {
  levels: [DunningLevel, DunningLevel, DunningLevel];
  graceDays: number;
  /** Days after reminder 3 until the invoice is ready for debt collection. */
  collectionDays: number;
  /** true: reminders ship at once; false: they wait in ready_for_reminderN for approval. */
  autoShip: boolean;
  /** Local time of the daily run in the company's time zone, HH:MM. */
  runAt: string;
  /**
   * When the payments reach the original total and something is still open: waive it (and record it) or
   * pursue it. Payments settle costs, then interest, then principal (§ 367 BGB), so what is left, and
   * waived, is a remainder of the principal as large as the fees, flat fee and interest charged.
   */
  waiveRemainder: boolean;
  /**
   * BGB § 288 default interest on the open principal from the first day of default (§ 286, see
   * defaultStarts), day by day at each day's base rate: + 5 points for consumers, + 9 points for businesses.
   */
  defaultInterest: boolean;
  /**
   * When default starts (§ 286 BGB): `reminder_deadline`, the day after the deadline of reminder 1
   * (§ 286 (1)); `thirty_days_business`, for business customers the earlier of that and 31 days after
   * the due date (§ 286 (3)). Consumers always by the reminder.
   */
  defaultStarts: DefaultStarts;
  /** The 40 EUR flat fee of § 288 (5) BGB for business customers, once per invoice, with the first reminder after default. */
  businessFlatFee: boolean;
  /**
   * Before a reminder for an ERP-sourced invoice is created or shipped, the ERP is asked whether it
   * cleared the item. When it cannot be reached: false holds the reminder back (never a reminder on
   * stale data), true sends it anyway.
   */
  sendWhenErpUnreachable: boolean;
  /** Days after its run's business date a proposed reminder may still be approved; older ones need a new run. */
  proposalValidDays: number;
}

const TEXTS = REMINDER_TEXTS;

export const DEFAULT_POLICY: DunningPolicy = {
  levels: [
    { waitDays: 7, fee: '0.00', minimumOpen: '0.01', paymentTermDays: 7, text: TEXTS[0] },
    { waitDays: 14, fee: '2.50', minimumOpen: '0.01', paymentTermDays: 7, text: TEXTS[1] },
    { waitDays: 14, fee: '2.50', minimumOpen: '0.01', paymentTermDays: 7, text: TEXTS[2] },
  ],
  graceDays: 0,
  collectionDays: 14,
  autoShip: true,
  runAt: '06:00',
  waiveRemainder: true,
  defaultInterest: false,
  defaultStarts: 'reminder_deadline',
  businessFlatFee: false,
  sendWhenErpUnreachable: false,
  proposalValidDays: 3,
};

/** A stored policy, completed with the defaults of settings added after it was stored. */
export function completePolicy(stored: Partial<DunningPolicy> | undefined): DunningPolicy {
  return { ...DEFAULT_POLICY, ...stored };
}
