import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { IdentityProviderType } from '@agp/contracts';

export interface EmailDomainRecord {
  domain: string;
  /** The random value the TXT record must carry. */
  token: string;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  lastCheckError: string | null;
}

@Entity({ schema: 'tenant_auth', name: 'identity_providers' })
export class IdentityProvider {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

  @Column('text')
  alias: string;

  @Column('text')
  displayName: string;

  @Column('boolean')
  enabled: boolean;

  /** D26. */
  @Column('text')
  type: IdentityProviderType;

  @Column('text')
  clientId: string;

  /** D26: write-only; sealed with KEY_ENCRYPTION_SECRET (it is needed to talk to the provider). */
  @Column('text', { nullable: true })
  clientSecretSealed: string | null;

  @Column('text', { nullable: true })
  issuerUrl: string | null;

  /** D29: provider group name → our group ids. */
  @Column('jsonb')
  groupMappings: Record<string, string[]>;

  @Column('jsonb')
  emailDomains: EmailDomainRecord[];

  @Column('text', { nullable: true })
  redirectUri: string | null;

  @Column('uuid')
  createdBy: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
