import { decodeJwt, decodeProtectedHeader } from 'jose';

import { BootstrapResult } from '../src';
import {
  TenantAuthHarness,
  apiAs,
  bootstrapTenant,
  passwordToken,
  randomAddress,
  requestToken,
  startTenantAuth,
} from './tenant-auth-harness';

describe('token endpoint (D6–D9)', () => {
  let harness: TenantAuthHarness;
  let admin: BootstrapResult;
  let agent: { id: string; clientSecret: string };
  const basic = (id: string, secret: string): string =>
    `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

  beforeAll(async () => {
    harness = await startTenantAuth({
      env: { TOKEN_RATE_LIMIT_PER_CLIENT: '10', TOKEN_RATE_LIMIT_PER_ADDRESS: '8' },
    });
    admin = await bootstrapTenant(harness, 'acme');
    const created = await apiAs(harness, await passwordToken(harness, admin)).post('/agents', {
      name: 'billing-bot',
      permissions: [{ entity: 'REGISTRY', permission: 'READ' }],
    });
    agent = { id: created.body.id, clientSecret: created.body.clientSecret };
  });

  afterAll(async () => {
    await harness.close();
  });

  describe('client_credentials', () => {
    it('should issue an ES256 token with every D9 claim when the secret is in the body', async () => {
      const answer = await requestToken(harness, {
        grant_type: 'client_credentials',
        client_id: agent.id,
        client_secret: agent.clientSecret,
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 900,
        scope: 'svc:api',
      });
      const token = answer.body.access_token as string;
      const jwks = (
        await harness.app.inject({ url: '/tenant-auth/v1/.well-known/jwks.json' })
      ).json();
      expect(decodeProtectedHeader(token)).toEqual({
        alg: 'ES256',
        typ: 'JWT',
        kid: jwks.keys[0].kid,
      });
      const claims = decodeJwt(token);
      expect(claims).toMatchObject({
        iss: 'http://agp.test/tenant-auth/v1',
        sub: agent.id,
        aud: 'http://agp.test',
        tid: admin.tenantId,
        kind: 'AGENT',
        scope: 'svc:api',
        perms: ['REGISTRY:READ'],
      });
      expect(claims.exp! - claims.iat!).toBe(900);
      expect(claims.nbf).toBe(claims.iat);
      expect(claims.jti).toEqual(expect.any(String));
    });

    it('should issue a token when the client authenticates with HTTP Basic and a JSON body', async () => {
      const response = await harness.app.inject({
        method: 'POST',
        url: '/tenant-auth/v1/oauth/token',
        headers: {
          authorization: basic(agent.id, agent.clientSecret),
          'x-forwarded-for': randomAddress(),
        },
        payload: { grant_type: 'client_credentials' },
      });
      expect(response.statusCode).toBe(200);
    });

    it('should give the relay audience when mcp:call is asked for (D8)', async () => {
      const answer = await requestToken(harness, {
        grant_type: 'client_credentials',
        client_id: agent.id,
        client_secret: agent.clientSecret,
        scope: 'mcp:call',
      });
      expect(answer.body.scope).toBe('mcp:call');
      expect(decodeJwt(answer.body.access_token as string).aud).toBe('http://agp.test/relay');
    });

    it('should answer a wrong secret, an unknown client and a malformed client id alike with invalid_client 401', async () => {
      const answers = await Promise.all([
        requestToken(harness, {
          grant_type: 'client_credentials',
          client_id: agent.id,
          client_secret: 'wrong',
        }),
        requestToken(harness, {
          grant_type: 'client_credentials',
          client_id: '00000000-0000-4000-8000-000000000000',
          client_secret: agent.clientSecret,
        }),
        requestToken(harness, {
          grant_type: 'client_credentials',
          client_id: 'not-an-id',
          client_secret: 'x',
        }),
        requestToken(harness, {}, { authorization: basic(agent.id, 'wrong') }).then(() =>
          requestToken(
            harness,
            { grant_type: 'client_credentials' },
            { authorization: basic(agent.id, 'wrong') },
          ),
        ),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({
          error: 'invalid_client',
          error_description: 'client authentication failed',
        });
        expect(answer.headers['www-authenticate']).toContain('Basic');
      }
    });

    it('should answer invalid_request when a parameter is missing or two client authentications are used', async () => {
      const missing = await requestToken(harness, {
        grant_type: 'client_credentials',
        client_id: agent.id,
      });
      const both = await requestToken(
        harness,
        { grant_type: 'client_credentials', client_secret: agent.clientSecret },
        { authorization: basic(agent.id, agent.clientSecret) },
      );
      expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request']);
      expect([both.status, both.body.error]).toEqual([400, 'invalid_request']);
    });

    it('should answer invalid_scope when the scope is unknown or names two audiences', async () => {
      for (const scope of ['admin', 'svc:api mcp:call']) {
        const answer = await requestToken(harness, {
          grant_type: 'client_credentials',
          client_id: agent.id,
          client_secret: agent.clientSecret,
          scope,
        });
        expect([answer.status, answer.body.error]).toEqual([400, 'invalid_scope']);
      }
    });
  });

  describe('password', () => {
    it('should issue a USER token with the administrator role when tenant is given by slug or id', async () => {
      for (const tenant of [admin.tenant, admin.tenantId]) {
        const answer = await requestToken(harness, {
          grant_type: 'password',
          tenant,
          username: admin.email.toUpperCase(),
          password: admin.password,
        });
        expect(answer.status).toBe(200);
        const claims = decodeJwt(answer.body.access_token as string);
        expect(claims).toMatchObject({ kind: 'USER', tid: admin.tenantId, email: admin.email });
        expect(claims.perms).toContain('TENANT:ADMIN');
      }
    });

    it('should answer invalid_grant alike when the password, user or tenant is wrong', async () => {
      const attempts = [
        { tenant: admin.tenant, username: admin.email, password: 'wrong-password' },
        { tenant: admin.tenant, username: 'nobody@acme.example', password: admin.password },
        { tenant: 'no-such-tenant', username: admin.email, password: admin.password },
      ];
      for (const attempt of attempts) {
        const answer = await requestToken(harness, { grant_type: 'password', ...attempt });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({
          error: 'invalid_grant',
          error_description: 'the user name, password or tenant is wrong',
        });
      }
    });

    it('should answer invalid_request when the tenant is missing', async () => {
      const answer = await requestToken(harness, {
        grant_type: 'password',
        username: admin.email,
        password: admin.password,
      });
      expect([answer.status, answer.body.error]).toEqual([400, 'invalid_request']);
    });
  });

  describe('request errors', () => {
    it('should answer invalid_request without grant_type and unsupported_grant_type for another grant', async () => {
      const none = await requestToken(harness, {});
      const other = await requestToken(harness, {
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: 'x',
      });
      expect([none.status, none.body.error]).toEqual([400, 'invalid_request']);
      expect([other.status, other.body.error]).toEqual([400, 'unsupported_grant_type']);
    });

    it('should answer invalid_request when a parameter is repeated', async () => {
      const response = await harness.app.inject({
        method: 'POST',
        url: '/tenant-auth/v1/oauth/token',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': randomAddress() },
        payload: { grant_type: ['password', 'client_credentials'] },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('invalid_request');
    });
  });

  describe('rate limits', () => {
    it('should answer 429 with Retry-After when one client asks too often', async () => {
      const other = await apiAs(harness, await passwordToken(harness, admin)).post('/agents', {
        name: 'chatty-bot',
      });
      const statuses: number[] = [];
      let retryAfter: unknown;
      for (let i = 0; i < 12; i += 1) {
        const answer = await requestToken(harness, {
          grant_type: 'client_credentials',
          client_id: other.body.id,
          client_secret: 'wrong',
        });
        statuses.push(answer.status);
        retryAfter = answer.headers['retry-after'] ?? retryAfter;
      }
      expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    });

    /** Nine token requests from nine different clients, each with the X-Forwarded-For given. */
    async function nineClients(idDigit: number, forwardedFor: () => string): Promise<number[]> {
      const statuses: number[] = [];
      for (let i = 0; i < 9; i += 1) {
        const answer = await requestToken(
          harness,
          {
            grant_type: 'client_credentials',
            client_id: `00000000-0000-4000-8000-0000000000${idDigit}${i}`,
            client_secret: 'x',
          },
          { 'x-forwarded-for': forwardedFor() },
        );
        statuses.push(answer.status);
      }
      return statuses;
    }

    it('should answer 429 when one address asks too often, whatever the client', async () => {
      const address = randomAddress();
      const statuses = await nineClients(0, () => address);
      expect(statuses.slice(0, 8).every((status) => status === 401)).toBe(true);
      expect(statuses[8]).toBe(429);
    });

    it('should count a request against the address its proxy saw when the client wrote others before it', async () => {
      const address = randomAddress();
      const statuses = await nineClients(1, () => `${randomAddress()}, ${address}`);
      expect(statuses[8]).toBe(429);
    });
  });

  describe('discovery', () => {
    it('should serve the JWKS and the discovery document without a token', async () => {
      const jwks = await harness.app.inject({ url: '/tenant-auth/v1/.well-known/jwks.json' });
      const discovery = await harness.app.inject({
        url: '/tenant-auth/v1/.well-known/openid-configuration',
      });
      expect(jwks.statusCode).toBe(200);
      expect(jwks.json().keys[0]).toMatchObject({
        kty: 'EC',
        crv: 'P-256',
        alg: 'ES256',
        use: 'sig',
      });
      expect(jwks.json().keys[0].d).toBeUndefined();
      expect(discovery.json()).toMatchObject({
        issuer: 'http://agp.test/tenant-auth/v1',
        token_endpoint: 'http://agp.test/tenant-auth/v1/oauth/token',
        jwks_uri: 'http://agp.test/tenant-auth/v1/.well-known/jwks.json',
        grant_types_supported: [
          'client_credentials',
          'password',
          'authorization_code',
          'refresh_token',
        ],
      });
    });
  });

  it('should never write a client secret or a password into the log', () => {
    const log = harness.logs.join('');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(agent.clientSecret);
    expect(log).not.toContain(admin.password);
  });
});
