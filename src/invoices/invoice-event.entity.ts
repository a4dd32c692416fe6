import { Column, Entity, PrimaryColumn } from 'typeorm';

export type ActorType = 'api' | 'run' | 'push' | 'erp_pull' | 'user' | 'system';

/** One entry of an invoice's history: a status change, a payment, a waived amount… */
@Entity('invoice_events')
export class InvoiceEvent {
  @PrimaryColumn('uuid', { name: 'company_id' }) companyId!: string;
  @PrimaryColumn('bigint', { generated: 'identity' }) id!: string;
  @Column('uuid', { name: 'invoice_id' }) invoiceId!: string;
  @Column('text') kind!: string;
  @Column('text', { name: 'from_status', nullable: true }) fromStatus!: string | null;
  @Column('text', { name: 'to_status', nullable: true }) toStatus!: string | null;
  @Column('text', { name: 'actor_type' }) actorType!: ActorType;
  @Column('text', { name: 'actor_id', nullable: true }) actorId!: string | null;
  @Column('text', { nullable: true }) reason!: string | null;
  @Column('jsonb', { nullable: true }) details!: Record<string, unknown> | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}
