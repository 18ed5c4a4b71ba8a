import { IdentityProviderType } from '@agp/contracts';

export interface EmailDomainRecord {
  domain: string;
  /** The random value the TXT record must carry. */
  token: string;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  lastCheckError: string | null;
}

/** A tenant's upstream identity provider (D26). */
export interface IdentityProvider {
  id: string;
  tenantId: string;
  alias: string;
  displayName: string;
  enabled: boolean;
  type: IdentityProviderType;
  clientId: string;
  /** D26: write-only; sealed with KEY_ENCRYPTION_SECRET (it is needed to talk to the provider). */
  clientSecretSealed: string | null;
  issuerUrl: string | null;
  /** D29: provider group name → our group ids. */
  groupMappings: Record<string, string[]>;
  emailDomains: EmailDomainRecord[];
  redirectUri: string | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}
