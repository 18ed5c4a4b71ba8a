import { randomUUID } from 'node:crypto';

import { BootstrapService, SigningKeysService } from '@agp/tenant-auth';
import { ForgedCase, TrustedSigner, eventually, forgedTokenCases, probePath } from '@agp/testing';

import { BASE_URL, Platform, startPlatform } from './auth/platform';

/**
 * The routes that answer without a token: health probes, each service's OpenAPI document (issue
 * 18), D6's three, browser sign-in (identity.md I14) and audit's checkpoint keys (A12).
 */
const PUBLIC_ROUTES = new Set([
  '/health/live',
  '/health/ready',
  '/openapi.json',
  '/tenant-auth/v1/oauth/token',
  '/tenant-auth/v1/.well-known/jwks.json',
  '/tenant-auth/v1/.well-known/openid-configuration',
  '/tenant-auth/v1/oauth/authorize',
  '/tenant-auth/v1/oauth/authorize/password',
  '/tenant-auth/v1/oauth/authorize/federated',
  '/tenant-auth/v1/oauth/logout',
  '/tenant-auth/v1/identity-providers/:id/callback',
  '/audit/v1/integrity/keys',
  // traffic.md T40: a target agent's pushes, authenticated by the token the relay issued.
  '/relay/a2a-push/:pushId',
  // D43, D56 (channels.md CH2, CH7, CH9): a channel's platform signs its events its own way.
  '/relay/channels/:channelId/events',
  '/relay/channels/:channelId/events/:eventId',
  // D43 (identity.md I23-I25, relay.md R28): what a person's MCP client reaches before any token.
  '/tenant-auth/v1/oauth/register',
  '/tenant-auth/v1/oauth/authorize/consent',
  '/.well-known/oauth-authorization-server/tenant-auth/v1',
  '/.well-known/openid-configuration/tenant-auth/v1',
  '/.well-known/oauth-protected-resource/relay/mcp/:mcpServerId',
  // D59 (marketplace.md MK21): the licence keys, for verifying a licence offline.
  '/relay/v1/licences/keys',
]);

type Inject = Platform['gateway']['inject'];

async function token(platform: Platform, form: Record<string, string>): Promise<string> {
  const response = await platform.gateway.inject({
    method: 'POST',
    url: '/tenant-auth/v1/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
  if (response.statusCode !== 200) {
    throw new Error(`token request failed: ${response.body}`);
  }
  return response.json().access_token as string;
}

describe('token verification in every service and through the gateway', () => {
  let platform: Platform;
  let signer: TrustedSigner;
  let admin: { tenantId: string; tenant: string; email: string; password: string };
  let adminToken: string;
  let revoked: ForgedCase[];

  const call = (target: { inject: Inject }, method: string, url: string, authorization?: string) =>
    target.inject({
      method: method as 'GET',
      url,
      headers: authorization ? { authorization } : {},
      ...(['POST', 'PATCH', 'PUT'].includes(method) ? { payload: {} } : {}),
    });

  beforeAll(async () => {
    platform = await startPlatform();
    const tenantAuth = platform.tenantAuth.app;
    admin = await tenantAuth
      .get(BootstrapService)
      .bootstrap({ slug: 'operator', email: 'admin@operator.example' });
    adminToken = await token(platform, {
      grant_type: 'password',
      tenant: 'operator',
      username: admin.email,
      password: admin.password,
    });
    const key = await tenantAuth.get(SigningKeysService).activeKey();
    const jwks = await tenantAuth.get(SigningKeysService).jwks();
    signer = {
      issuer: `${BASE_URL}/tenant-auth/v1`,
      apiAudience: BASE_URL,
      kid: key.kid,
      privateKey: key.privateKey,
      publicJwk: jwks.keys.find((k) => k.kid === key.kid)!,
    };

    const asAdmin = (method: string, url: string, payload: object) =>
      platform.gateway.inject({
        method: method as 'POST',
        url: `/tenant-auth/v1${url}`,
        headers: { authorization: `Bearer ${adminToken}` },
        payload,
      });
    const tenant = (
      await asAdmin('POST', '/tenants', {
        slug: 'suspended',
        name: 'S',
        adminEmail: 'a@suspended.example',
      })
    ).json();
    const suspendedToken = await token(platform, {
      grant_type: 'password',
      tenant: 'suspended',
      username: 'a@suspended.example',
      password: tenant.initialAdministrator.password,
    });
    await asAdmin('PATCH', `/tenants/${tenant.id}`, { status: 'SUSPENDED' });
    const agent = (
      await asAdmin('POST', '/agents', {
        name: 'deleted-agent',
        permissions: [{ entity: 'AUDIT', permission: 'READ' }],
      })
    ).json();
    const agentToken = await token(platform, {
      grant_type: 'client_credentials',
      client_id: agent.id,
      client_secret: agent.clientSecret,
    });
    const agentMcpToken = await token(platform, {
      grant_type: 'client_credentials',
      client_id: agent.id,
      client_secret: agent.clientSecret,
      scope: 'mcp:call',
    });
    expect(
      (
        await platform.gateway.inject({
          url: '/audit/v1/events',
          headers: { authorization: `Bearer ${agentToken}` },
        })
      ).statusCode,
    ).not.toBe(401);
    await platform.gateway.inject({
      method: 'DELETE',
      url: `/tenant-auth/v1/agents/${agent.id}`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    revoked = [
      { name: "a suspended tenant's token", authorization: `Bearer ${suspendedToken}` },
      { name: "a deleted agent's token", authorization: `Bearer ${agentToken}` },
      { name: "a deleted agent's mcp:call token", authorization: `Bearer ${agentMcpToken}` },
    ];
    // Revocations reach every process through the shared bucket (identity.md I2).
    for (const service of platform.services) {
      const route = service.routes.find((r) => r.method === 'GET' && !PUBLIC_ROUTES.has(r.url))!;
      for (const target of [service.app, platform.gateway]) {
        await eventually(async () =>
          expect(
            (await call(target, 'GET', probePath(route.url), revoked[1].authorization)).statusCode,
          ).toBe(401),
        );
      }
    }
  });

  afterAll(async () => {
    await platform?.close();
  });

  it('should find each service routes in its router', () => {
    for (const service of platform.services) {
      expect([service.name, service.routes.length > 5]).toEqual([service.name, true]);
    }
  });

  it('should answer 401 to every forged or revoked token on every protected route, directly and through the gateway', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const service of platform.services) {
      for (const route of service.routes.filter((r) => !PUBLIC_ROUTES.has(r.url))) {
        const url = probePath(route.url);
        const claims = {
          tid: admin.tenantId,
          sub: randomUUID(),
          kind: 'USER' as const,
          perms: ['TENANT:ADMIN', 'AUDIT:ADMIN', 'REGISTRY:ADMIN'],
        };
        const cases = [...(await forgedTokenCases(signer, claims, url)), ...revoked];
        for (const forged of cases) {
          for (const [via, target] of [
            [service.name, service.app],
            ['gateway', platform.gateway],
          ] as const) {
            const response = await call(target, route.method, url, forged.authorization);
            checked += 1;
            if (response.statusCode !== 401) {
              failures.push(
                `${via}: ${route.method} ${route.url} with ${forged.name}: ${response.statusCode}`,
              );
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(1_000);
  }, 300_000);

  it('should answer 401 at the gateway to every forged token on /relay/mcp, whatever the relay serves there', async () => {
    const url = `/relay/mcp/${randomUUID()}`;
    const claims = {
      tid: admin.tenantId,
      sub: randomUUID(),
      kind: 'AGENT' as const,
      perms: ['MCP_CONVERSATIONS:ADMIN'],
    };
    const names: string[] = [];
    for (const forged of [...(await forgedTokenCases(signer, claims, url)), ...revoked]) {
      if ((await call(platform.gateway, 'POST', url, forged.authorization)).statusCode !== 401) {
        names.push(forged.name);
      }
    }
    expect(names).toEqual([]);
    const apiToken = (await forgedTokenCases(signer, claims, url)).find(
      (c) => c.name === 'an svc:api token on /relay/mcp',
    );
    expect(apiToken).toBeDefined();
  });

  it('should forward a request with a valid token and the public routes without one', async () => {
    const permissions = await call(
      platform.gateway,
      'GET',
      '/tenant-auth/v1/permissions',
      `Bearer ${adminToken}`,
    );
    expect(permissions.statusCode).toBe(200);
    expect(permissions.json()).toContainEqual({ entity: 'AUDIT', permission: 'ADMIN' });
    const agent = (
      await platform.gateway.inject({
        method: 'POST',
        url: '/tenant-auth/v1/agents',
        headers: { authorization: `Bearer ${adminToken}` },
        payload: { name: 'mcp-agent' },
      })
    ).json();
    const mcpToken = await token(platform, {
      grant_type: 'client_credentials',
      client_id: agent.id,
      client_secret: agent.clientSecret,
      scope: 'mcp:call',
    });
    const mcp = await call(
      platform.gateway,
      'POST',
      `/relay/mcp/${randomUUID()}`,
      `Bearer ${mcpToken}`,
    );
    expect(mcp.statusCode).not.toBe(401);
    for (const url of [
      '/tenant-auth/v1/.well-known/jwks.json',
      '/tenant-auth/v1/.well-known/openid-configuration',
      '/relay/v1/licences/keys',
      '/health/live',
    ]) {
      expect([url, (await call(platform.gateway, 'GET', url)).statusCode]).toEqual([url, 200]);
    }
  });

  it('should answer 401 with WWW-Authenticate at the gateway without forwarding', async () => {
    const response = await call(platform.gateway, 'GET', '/relay/v1/agents');
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(response.headers['content-type']).toContain('application/problem+json');
  });
});
