import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { JWK } from 'jose';

/** An ES256 signing key (D9). Platform-wide, not a tenant's: no tenant_id, no row-level security. */
@Entity({ schema: 'tenant_auth', name: 'signing_keys' })
export class SigningKey {
  @PrimaryColumn('text')
  kid: string;

  /** The private JWK, sealed with KEY_ENCRYPTION_SECRET (AES-256-GCM). */
  @Column('text')
  privateKeySealed: string;

  @Column('jsonb')
  publicJwk: JWK;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  /** Null while it signs; set when a newer key takes over. */
  @Column('timestamptz', { nullable: true })
  retiredAt: Date | null;

  /** D9: stays in the JWKS until every token it signed has expired (retiredAt + TTL + skew). */
  @Column('timestamptz', { nullable: true })
  publishedUntil: Date | null;
}
