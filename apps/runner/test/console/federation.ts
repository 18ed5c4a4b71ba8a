import { TestDnsServer, TestIdentityProvider } from '@agp/testing';

import { call } from './governed-world';

export const AUDITOR = {
  sub: 'auditor-1',
  email: 'alice@example.org',
  email_verified: true,
  name: 'Alice Auditor',
  groups: ['sec-team'],
};

/**
 * A tenant's own identity provider (D26) run by the test, its domain verified through the test's
 * DNS server, and its `sec-team` group mapped (D29) to a group whose only role reads the audit.
 */
export async function federate(
  base: string,
  token: string,
  dns: TestDnsServer,
): Promise<TestIdentityProvider> {
  const role = await call<{ id: string }>(base, token, 'POST', '/tenant-auth/v1/roles', {
    name: 'Auditors',
    permissions: [{ entity: 'AUDIT', permission: 'READ' }],
  });
  const group = await call<{ id: string }>(base, token, 'POST', '/tenant-auth/v1/groups', {
    name: 'Security team',
    roleIds: [role.id],
  });
  const provider = await call<{
    id: string;
    redirectUri: string;
    emailDomains: Array<{ expectedTxtRecordName: string; expectedTxtRecordValue: string }>;
  }>(base, token, 'POST', '/tenant-auth/v1/identity-providers', {
    alias: 'okta',
    displayName: 'Okta',
    enabled: true,
    config: { type: 'OKTA', clientId: 'agp', clientSecret: 'idp-secret-0123456789' },
    groupMappings: { 'sec-team': [group.id] },
    emailDomains: ['example.org'],
  });
  const idp = await TestIdentityProvider.start(
    'agp',
    'idp-secret-0123456789',
    provider.redirectUri,
  );
  await call(base, token, 'PATCH', `/tenant-auth/v1/identity-providers/${provider.id}`, {
    config: { issuer: idp.issuer },
  });
  const [domain] = provider.emailDomains;
  dns.txt.set(domain.expectedTxtRecordName, [domain.expectedTxtRecordValue]);
  await idp.signInAs(AUDITOR);
  return idp;
}
