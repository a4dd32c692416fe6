import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A push credential (`Authorization: ApiKey …`); only the SHA-256 of the key is stored. */
@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn('uuid', { name: 'company_id' }) companyId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('bytea', { name: 'key_hash' }) keyHash!: Buffer;
  /** The first characters of the key, shown in listings so a user can tell keys apart. */
  @Column('text', { name: 'key_prefix' }) keyPrefix!: string;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}
