import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A person of a company who logs in to the web front end and the OAuth consent page. */
@Entity('users')
export class User {
  @PrimaryColumn('uuid', { name: 'company_id' }) companyId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('text') email!: string;
  /** scrypt hash in the form scrypt$N$r$p$salt$hash. */
  @Column('text', { name: 'password_hash' }) passwordHash!: string;
  /** 'owner' or 'member' (migration 1764720000000). */
  @Column('text') role!: 'owner' | 'member';
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}
