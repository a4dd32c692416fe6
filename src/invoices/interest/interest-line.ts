// One line of default interest as a letter, an e-mail and the statement of claim print it: the principal
// it ran on, the rate (base rate + points, BGB §§ 247, 288), the period and its days, and the amount.
// A line never spans a change of principal (a payment) or of base rate (1 January, 1 July): each can be
// recomputed by hand as principal × (base rate + points) / 100 × days / 365, rounded to cents.

export interface InterestLine {
  /**
   * `interest`: charged by a reminder or recorded at the hand-over; `correction`: a payment changed the
   * principal of days already charged. `principal` is then the change (negative for a back-dated
   * payment, which reverses over-charged interest; positive when a payment was deleted).
   */
  kind: 'interest' | 'correction';
  /** First and last day of the period, both included, YYYY-MM-DD. */
  from: string;
  until: string;
  days: number;
  /** The open principal during the period, "1190.00". */
  principal: string;
  /** The base rate of § 247 BGB in percent, "1.27" (may be negative). */
  baseRate: string;
  /** Percentage points above it: 5 (consumer, § 288 (1)) or 9 (business, § 288 (2)). */
  points: number;
  /** Signed, two decimals. */
  amount: string;
  /** The reminder that charged it; null for the hand-over to debt collection and for corrections. */
  reminderId: string | null;
}
