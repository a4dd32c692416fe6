import { Column, Entity, PrimaryColumn } from 'typeorm';

/** 0 = unknown, 1 = male, 2 = female. */
export type Gender = 0 | 1 | 2;
/** 0 = formal, 1 = informal. */
export type Salutation = 0 | 1;

@Entity('contacts')
export class Contact {
  @PrimaryColumn('uuid', { name: 'company_id' }) companyId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'customer_id' }) customerId!: string;
  @Column('text', { name: 'external_id', nullable: true }) externalId!: string | null;
  @Column('text') name!: string;
  @Column('text', { nullable: true }) phone!: string | null;
  @Column('smallint') gender!: Gender;
  @Column('smallint') salutation!: Salutation;
  @Column('text', { nullable: true }) email!: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}
