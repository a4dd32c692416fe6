import { Column, Entity, PrimaryColumn } from 'typeorm';

export const CUSTOMER_SHIPPING_MODES = ['email', 'post', 'dual_shipping', 'unknown'] as const;
export type CustomerShippingMode = (typeof CUSTOMER_SHIPPING_MODES)[number];

export const CUSTOMER_TYPES = ['business', 'consumer'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

@Entity('customers')
export class Customer {
  @PrimaryColumn('uuid', { name: 'company_id' }) companyId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('text', { name: 'external_id', nullable: true }) externalId!: string | null;
  @Column('text', { name: 'customer_number', nullable: true }) customerNumber!: string | null;
  @Column('text', { name: 'additional_number', nullable: true }) additionalNumber!: string | null;
  @Column('text') name!: string;
  @Column('text', { nullable: true }) phone!: string | null;
  @Column('text', { name: 'address_line1' }) addressLine1!: string;
  @Column('text', { name: 'address_line2', nullable: true }) addressLine2!: string | null;
  @Column('text', { name: 'address_line3' }) addressLine3!: string;
  @Column('text', { name: 'address_line4', nullable: true }) addressLine4!: string | null;
  @Column('text') zip!: string;
  @Column('text') city!: string;
  @Column('char', { name: 'country_code', length: 2 }) countryCode!: string;
  @Column('boolean', { name: 'stop_automatic_reminders' }) stopAutomaticReminders!: boolean;
  @Column('text', { name: 'shipping_mode', nullable: true }) shippingMode!: CustomerShippingMode | null;
  @Column('text', { name: 'customer_group_id', nullable: true }) customerGroupId!: string | null;
  @Column('text', { nullable: true }) note!: string | null;
  /** Extension of the spec: decides the default interest and the flat fee of BGB § 288. */
  @Column('text', { name: 'customer_type', default: 'business' }) customerType!: CustomerType;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}
