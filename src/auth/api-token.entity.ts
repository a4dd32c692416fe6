import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A REST credential (`Authorization: Token token=…`); only the SHA-256 of the token is stored. */
@Entity('api_tokens')
export class ApiToken {
  @PrimaryColumn('uuid', { name: 'company_id' }) companyId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('bytea', { name: 'token_hash' }) tokenHash!: Buffer;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}
