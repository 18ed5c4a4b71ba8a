import { IdentityProviderType } from '@agp/contracts';

import { EmailDomainRecord, IdentityProvider } from '../identity-provider.types';
import { txtRecordName, txtRecordValue } from '../domain-verification';

export interface EmailDomainResponse {
  domain: string;
  expectedTxtRecordName: string;
  expectedTxtRecordValue: string;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  lastCheckError: string | null;
}

/** The specification's identity provider; `clientSecret` is "********" when set, never the value (D26). */
export class IdentityProviderResponseDto {
  id: string;
  tenantId: string;
  alias: string;
  displayName: string;
  enabled: boolean;
  config: { type: IdentityProviderType; clientId: string; clientSecret?: string; issuer?: string };
  groupMappings: Record<string, string[]>;
  emailDomains: EmailDomainResponse[];
  redirectUri: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;

  static of(provider: IdentityProvider): IdentityProviderResponseDto {
    return {
      id: provider.id,
      tenantId: provider.tenantId,
      alias: provider.alias,
      displayName: provider.displayName,
      enabled: provider.enabled,
      config: {
        type: provider.type,
        clientId: provider.clientId,
        ...(provider.clientSecretSealed ? { clientSecret: '********' } : {}),
        ...(provider.issuerUrl ? { issuer: provider.issuerUrl } : {}),
      },
      groupMappings: provider.groupMappings,
      emailDomains: provider.emailDomains.map(domainOf),
      redirectUri: provider.redirectUri,
      createdBy: provider.createdBy,
      createdAt: provider.createdAt.toISOString(),
      updatedAt: provider.updatedAt.toISOString(),
    };
  }
}

function domainOf(record: EmailDomainRecord): EmailDomainResponse {
  return {
    domain: record.domain,
    expectedTxtRecordName: txtRecordName(record.domain),
    expectedTxtRecordValue: txtRecordValue(record.token),
    verifiedAt: record.verifiedAt,
    lastCheckedAt: record.lastCheckedAt,
    lastCheckError: record.lastCheckError,
  };
}
