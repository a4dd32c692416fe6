import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('payments')
export class Payment {
  @PrimaryColumn('uuid', { name: 'company_id' }) companyId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'invoice_id' }) invoiceId!: string;
  @Column('text', { name: 'external_id', nullable: true }) externalId!: string | null;
  @Column('numeric') amount!: string;
  @Column('date', { name: 'payment_date' }) paymentDate!: string;
  @Column('text', { nullable: true }) note!: string | null;
  @Column('text') source!: string;
  @Column('boolean', { name: 'inkasso_payment' }) inkassoPayment!: boolean;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}
