import { ForgedCase, TrustedSigner, forgedTokenCases, probePath } from '@agp/testing';

import { BootstrapResult, SigningKeysService } from '../src';
import {
  BASE_URL,
  TenantAuthHarness,
  apiAs,
  bootstrapTenant,
  clientToken,
  passwordToken,
  startTenantAuth,
} from './tenant-auth-harness';

/** D6: the only routes that answer without a token (plus the health probes). */
const PUBLIC_ROUTES = new Set([
  '/health/live',
  '/health/ready',
  '/tenant-auth/v1/oauth/token',
  '/tenant-auth/v1/.well-known/jwks.json',
  '/tenant-auth/v1/.well-known/openid-configuration',
  // identity.md I14: browser sign-in, reached before the browser has a token.
  '/tenant-auth/v1/oauth/authorize',
  '/tenant-auth/v1/oauth/authorize/password',
  '/tenant-auth/v1/oauth/authorize/federated',
  '/tenant-auth/v1/oauth/logout',
  '/tenant-auth/v1/identity-providers/:id/callback',
  // identity.md I23-I25: a person's MCP client registers, finds the issuer and the person consents
  // before anyone holds a token.
  '/tenant-auth/v1/oauth/register',
  '/tenant-auth/v1/oauth/authorize/consent',
  '/.well-known/oauth-authorization-server/tenant-auth/v1',
  '/.well-known/openid-configuration/tenant-auth/v1',
]);

describe('forged-token matrix on every tenant-auth route', () => {
  let harness: TenantAuthHarness;
  let operator: BootstrapResult;
  let signer: TrustedSigner;
  let revoked: ForgedCase[];

  beforeAll(async () => {
    harness = await startTenantAuth({ label: 'forged' });
    operator = await bootstrapTenant(harness, 'operator');
    const op = apiAs(harness, await passwordToken(harness, operator));
    const key = await harness.app.get(SigningKeysService).activeKey();
    const jwks = await harness.app.get(SigningKeysService).jwks();
    signer = {
      issuer: `${BASE_URL}/tenant-auth/v1`,
      apiAudience: BASE_URL,
      kid: key.kid,
      privateKey: key.privateKey,
      publicJwk: jwks.keys.find((k) => k.kid === key.kid)!,
    };

    // Valid signatures whose subjects were revoked afterwards (identity.md I2).
    const other = await op.post('/tenants', {
      slug: 'suspended',
      name: 'Suspended',
      adminEmail: 'admin@suspended.example',
    });
    const suspendedToken = await passwordToken(harness, {
      ...operator,
      tenant: 'suspended',
      ...other.body.initialAdministrator,
    });
    await op.patch(`/tenants/${other.body.id}`, { status: 'SUSPENDED' });
    const agent = await op.post('/agents', { name: 'deleted-agent' });
    const agentToken = await clientToken(harness, agent.body.id, agent.body.clientSecret);
    await op.delete(`/agents/${agent.body.id}`);
    const account = await op.post('/service-accounts', { name: 'suspended-account' });
    const accountToken = await clientToken(harness, account.body.id, account.body.clientSecret);
    await op.patch(`/service-accounts/${account.body.id}`, { status: 'SUSPENDED' });
    const password = 'deleted-user-password';
    const user = await op.post('/users', {
      email: 'deleted@operator.example',
      displayName: 'Deleted',
      password,
    });
    const userToken = await passwordToken(harness, {
      ...operator,
      email: 'deleted@operator.example',
      password,
    });
    await op.delete(`/users/${user.body.id}`);
    revoked = [
      { name: "a suspended tenant's token", authorization: `Bearer ${suspendedToken}` },
      { name: "a deleted agent's token", authorization: `Bearer ${agentToken}` },
      { name: "a suspended service account's token", authorization: `Bearer ${accountToken}` },
      { name: "a deleted user's token", authorization: `Bearer ${userToken}` },
    ];
  });

  afterAll(async () => {
    await harness.close();
  });

  it('should find the routes in the router, so that routes added later are covered', () => {
    const paths = new Set(harness.routes.map((route) => route.url));
    for (const expected of [
      '/tenant-auth/v1/users/:userId',
      '/tenant-auth/v1/identity-providers/:providerId/email-domains/:domain/verify',
    ]) {
      expect(paths.has(expected)).toBe(true);
    }
  });

  it('should answer 401 to every forged or revoked token on every protected route', async () => {
    const protectedRoutes = harness.routes.filter((route) => !PUBLIC_ROUTES.has(route.url));
    expect(protectedRoutes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let checked = 0;
    for (const route of protectedRoutes) {
      const url = probePath(route.url);
      const cases = [
        ...(await forgedTokenCases(
          signer,
          { tid: operator.tenantId, sub: operator.tenantId, kind: 'USER', perms: ['TENANT:ADMIN'] },
          url,
        )),
        ...revoked,
      ];
      for (const forged of cases) {
        const response = await harness.app.inject({
          method: route.method as 'GET',
          url,
          headers: forged.authorization ? { authorization: forged.authorization } : {},
          ...(['POST', 'PATCH', 'PUT'].includes(route.method) ? { payload: {} } : {}),
        });
        checked += 1;
        if (
          response.statusCode !== 401 ||
          (route.method !== 'HEAD' &&
            response.headers['www-authenticate'] !== 'Bearer error="invalid_token"')
        ) {
          failures.push(`${route.method} ${route.url} with ${forged.name}: ${response.statusCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(40 * 38);
  }, 300_000);

  it('should answer every public route without a token', async () => {
    for (const url of [
      '/tenant-auth/v1/.well-known/jwks.json',
      '/tenant-auth/v1/.well-known/openid-configuration',
      '/.well-known/oauth-authorization-server/tenant-auth/v1',
      '/.well-known/openid-configuration/tenant-auth/v1',
      '/health/live',
    ]) {
      expect((await harness.app.inject({ url })).statusCode).toBe(200);
    }
  });
});
