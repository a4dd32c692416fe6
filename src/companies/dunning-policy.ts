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

export interface DunningPolicy {
  levels: [DunningLevel, DunningLevel, DunningLevel];
  graceDays: number;
  /** Days after reminder 3 until the invoice is ready for debt collection. */
  collectionDays: number;
  /** true: reminders ship at once; false: they wait in ready_for_reminderN for approval. */
  autoShip: boolean;
  /** Local time of the daily run in the company's time zone, HH:MM. */
  runAt: string;
  /** When the payments reach the original total but fees or interest remain: waive the rest (and record it) or pursue it. */
  waiveRemainder: boolean;
  /**
   * BGB § 288 default interest on the open principal, from the day after reminder 1 (the reminder that
   * puts the customer in default): base rate + 5 points for consumers, + 9 points for businesses.
   */
  defaultInterest: boolean;
  /** The 40 EUR flat fee of § 288 (5) BGB for business customers, once per invoice, with the first reminder after default. */
  businessFlatFee: boolean;
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
  businessFlatFee: false,
};

/** A stored policy, completed with the defaults of settings added after it was stored. */
export function completePolicy(stored: Partial<DunningPolicy> | undefined): DunningPolicy {
  return { ...DEFAULT_POLICY, ...stored };
}
