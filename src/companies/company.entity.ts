import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The company's default shipping mode; `unknown`: none — a document whose levels name none is flagged. */
export const COMPANY_SHIPPING_MODES = ['email', 'post', 'dual_shipping', 'manual_shipping', 'unknown'] as const;
export type CompanyShippingMode = (typeof COMPANY_SHIPPING_MODES)[number];

/** The company's shipping defaults for new invoices (DESIGN.md): mode, autosend, autoskip. */
export interface CompanyShippingDefaults {
  shippingMode: CompanyShippingMode;
  autosend: boolean;
  autoskipShipping: boolean;
}

@Entity('companies')
export class Company {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text', { name: 'time_zone' }) timeZone!: string;
  /** Where notices to the company go (web app's company settings); null: none given. */
  @Column('text', { name: 'contact_email', nullable: true }) contactEmail!: string | null;
  @Column('text', { name: 'shipping_mode' }) shippingMode!: CompanyShippingMode;
  @Column('boolean') autosend!: boolean;
  @Column('boolean', { name: 'autoskip_shipping' }) autoskipShipping!: boolean;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}
