import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { InvoiceSupply } from './invoice-supply.js';
import type { InvoiceStatus } from './invoice-status.js';

export const INVOICE_SHIPPING_MODES = ['email', 'post', 'dual_shipping', 'skip_shipping', 'manual_shipping', 'unknown'] as const;
export type InvoiceShippingMode = (typeof INVOICE_SHIPPING_MODES)[number];

/** Amounts are numeric in Postgres and strings here: do arithmetic with Decimal (src/common/money.ts). */
@Entity('invoices')
export class Invoice {
  @PrimaryColumn('uuid', { name: 'company_id' }) companyId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('text', { name: 'external_id', nullable: true }) externalId!: string | null;
  @Column('uuid', { name: 'customer_id' }) customerId!: string;
  @Column('uuid', { name: 'contact_id', nullable: true }) contactId!: string | null;
  @Column('text', { name: 'invoice_number', nullable: true }) invoiceNumber!: string | null;
  @Column('text', { name: 'additional_number', nullable: true }) additionalNumber!: string | null;
  @Column('text') status!: InvoiceStatus;
  @Column('text', { name: 'status_before_paid', nullable: true }) statusBeforePaid!: InvoiceStatus | null;
  @Column('numeric', { name: 'original_total' }) originalTotal!: string;
  @Column('numeric', { name: 'reminder_fees' }) reminderFees!: string;
  /** BGB § 288 default interest booked with the reminders that carried it. */
  @Column('numeric', { name: 'default_interest', default: 0 }) defaultInterest!: string;
  /** The 40 EUR flat fee of § 288 (5) BGB (business customers, once per invoice). */
  @Column('numeric', { name: 'flat_fee', default: 0 }) flatFee!: string;
  @Column('numeric', { name: 'paid_amount' }) paidAmount!: string;
  @Column('numeric', { name: 'open_amount' }) openAmount!: string;
  @Column('numeric', { nullable: true }) net!: string | null;
  @Column('numeric', { nullable: true }) vat7!: string | null;
  @Column('numeric', { nullable: true }) vat19!: string | null;
  /** Line items and delivery date of a pushed invoice (invoice-supply.ts); null when not given. */
  @Column('jsonb', { nullable: true }) supply!: InvoiceSupply | null;
  @Column('date', { name: 'order_date', nullable: true }) orderDate!: string | null;
  @Column('date', { name: 'invoice_date', nullable: true }) invoiceDate!: string | null;
  @Column('date', { name: 'due_date', nullable: true }) dueDate!: string | null;
  @Column('integer', { name: 'time_for_payment', nullable: true }) timeForPayment!: number | null;
  @Column('text') source!: string;
  @Column('text', { name: 'shipping_mode', nullable: true }) shippingMode!: InvoiceShippingMode | null;
  @Column('boolean', { name: 'ignore_reminder_fees' }) ignoreReminderFees!: boolean;
  @Column('timestamptz', { name: 'written_off_at', nullable: true }) writtenOffAt!: Date | null;
  /** Fees or interest left open after the principal was paid and the company waives such rests. */
  @Column('numeric', { name: 'waived_amount', default: 0 }) waivedAmount!: string;
  @Column('text', { name: 'dunning_block_reason', nullable: true }) dunningBlockReason!: string | null;
  @Column('date', { name: 'dunning_block_until', nullable: true }) dunningBlockUntil!: string | null;
  @Column('text', { name: 'pdf_key', nullable: true }) pdfKey!: string | null;
  @Column('bigint', { name: 'pdf_size', nullable: true }) pdfSize!: string | null;
  @Column('bytea', { name: 'pdf_sha256', nullable: true }) pdfSha256!: Buffer | null;
  @Column('text', { name: 'attachment_key', nullable: true }) attachmentKey!: string | null;
  @Column('bigint', { name: 'attachment_size', nullable: true }) attachmentSize!: string | null;
  @Column('bytea', { name: 'attachment_sha256', nullable: true }) attachmentSha256!: Buffer | null;
  /** The PDF carries JavaScript, /Launch actions or embedded files (found at upload; pdf-active-content.ts). */
  @Column('boolean', { name: 'pdf_active_content', default: false }) pdfActiveContent!: boolean;
  @Column('boolean', { name: 'attachment_active_content', default: false }) attachmentActiveContent!: boolean;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}
