import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('reminders')
export class Reminder {
  @PrimaryColumn('uuid', { name: 'company_id' }) companyId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'invoice_id' }) invoiceId!: string;
  @Column('smallint', { name: 'reminder_stage' }) reminderStage!: number;
  @Column('date', { name: 'reminder_date' }) reminderDate!: string;
  @Column('timestamptz', { name: 'last_sent_at', nullable: true }) lastSentAt!: Date | null;
  @Column('text', { name: 'shipping_mode', nullable: true }) shippingMode!: string | null;
  @Column('numeric') fees!: string;
  /** BGB § 288 default interest for interest_from … interest_until, at interest_points above each day's base rate. */
  @Column('numeric', { name: 'default_interest', default: 0 }) defaultInterest!: string;
  @Column('date', { name: 'interest_from', nullable: true }) interestFrom!: string | null;
  @Column('date', { name: 'interest_until', nullable: true }) interestUntil!: string | null;
  @Column('numeric', { name: 'interest_points', nullable: true }) interestPoints!: string | null;
  /** The § 288 (5) flat fee, on the first reminder after default of a business customer's invoice. */
  @Column('numeric', { name: 'flat_fee', default: 0 }) flatFee!: string;
  /** The deadline the reminder set; the day after reminder 1's starts default (§ 286 (1) BGB). */
  @Column('date', { name: 'pay_by', nullable: true }) payBy!: string | null;
  @Column('uuid', { name: 'run_id', nullable: true }) runId!: string | null;
  /** When the reminder passed its send-time checks and its fee was booked on the invoice. */
  @Column('timestamptz', { name: 'dispatched_at', nullable: true }) dispatchedAt!: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}
