import { Column, Entity, PrimaryColumn } from 'typeorm';

export type CompanyShippingMode = 'email' | 'post' | 'dual_shipping' | 'unknown';

@Entity('companies')
export class Company {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text', { name: 'time_zone' }) timeZone!: string;
  @Column('text', { name: 'shipping_mode' }) shippingMode!: CompanyShippingMode;
  @Column('boolean') autosend!: boolean;
  @Column('boolean', { name: 'autoskip_shipping' }) autoskipShipping!: boolean;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}
