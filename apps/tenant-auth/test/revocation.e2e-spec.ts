import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { TokenVerifier } from '@agp/auth';
import { eventually } from '@agp/testing';
import { SignJWT, decodeProtectedHeader, generateKeyPair } from 'jose';

import { BootstrapResult, SigningKeysService, bootstrapDefaultTenant } from '../src';
import {
  Api,
  BASE_URL,
  TenantAuthHarness,
  apiAs,
  bootstrapTenant,
  clientToken,
  passwordToken,
  requestToken,
  startTenantAuth,
} from './tenant-auth-harness';

describe('revocation across replicas and key rotation', () => {
  let primary: TenantAuthHarness & { database: { url: string }; natsPrefix: string };
  let replica: TenantAuthHarness;
  let operator: BootstrapResult;
  let op: Api;

  beforeAll(async () => {
    primary = await startTenantAuth({ label: 'revocation' });
    operator = await bootstrapTenant(primary, 'operator');
    // A second replica on the same database and NATS prefix: nothing it knows comes from the first's memory.
    replica = await startTenantAuth({
      database: primary.database as never,
      natsPrefix: primary.natsPrefix,
    });
    op = apiAs(primary, await passwordToken(primary, operator));
  });

  afterAll(async () => {
    await replica.close();
    await primary.close();
  });

  const status = async (
    harness: TenantAuthHarness,
    token: string,
    url = '/tenant-auth/v1/permissions',
  ): Promise<number> =>
    (
      await harness.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${token}` },
      })
    ).statusCode;

  it("should refuse a suspended tenant's tokens on every replica, and accept them again once reactivated", async () => {
    const created = await op.post('/tenants', {
      slug: 'suspend-me',
      name: 'Suspend me',
      adminEmail: 'admin@suspend.example',
    });
    expect(created.status).toBe(201);
    const tenantAdmin = {
      ...operator,
      tenant: 'suspend-me',
      tenantId: created.body.id,
      ...created.body.initialAdministrator,
    };
    const token = await passwordToken(primary, tenantAdmin);
    expect(await status(replica, token)).toBe(200);

    expect((await op.patch(`/tenants/${created.body.id}`, { status: 'SUSPENDED' })).status).toBe(
      200,
    );
    expect(await status(primary, token)).toBe(401);
    await eventually(async () => expect(await status(replica, token)).toBe(401));
    const refused = await requestToken(replica, {
      grant_type: 'password',
      tenant: 'suspend-me',
      username: tenantAdmin.email,
      password: tenantAdmin.password,
    });
    expect(refused.body.error).toBe('invalid_grant');

    expect((await op.patch(`/tenants/${created.body.id}`, { status: 'ACTIVE' })).status).toBe(200);
    await eventually(async () => expect(await status(replica, token)).toBe(200));
  });

  it("should refuse a deleted agent's and a suspended agent's tokens on every replica", async () => {
    const deleted = await op.post('/agents', { name: 'doomed' });
    const suspended = await op.post('/agents', { name: 'paused' });
    const deletedToken = await clientToken(primary, deleted.body.id, deleted.body.clientSecret);
    const suspendedToken = await clientToken(
      primary,
      suspended.body.id,
      suspended.body.clientSecret,
    );
    expect(await status(replica, deletedToken)).toBe(200);

    expect((await op.delete(`/agents/${deleted.body.id}`)).status).toBe(204);
    expect((await op.patch(`/agents/${suspended.body.id}`, { status: 'SUSPENDED' })).status).toBe(
      200,
    );
    for (const harness of [primary, replica]) {
      await eventually(async () => expect(await status(harness, deletedToken)).toBe(401));
      await eventually(async () => expect(await status(harness, suspendedToken)).toBe(401));
    }
    const again = await requestToken(primary, {
      grant_type: 'client_credentials',
      client_id: suspended.body.id,
      client_secret: suspended.body.clientSecret,
    });
    expect(again.status).toBe(401);
  });

  it("should refuse a disabled user's tokens, and a replica started later knows it at once", async () => {
    const password = 'disabled-user-password';
    const user = await op.post('/users', {
      email: 'gone@operator.example',
      displayName: 'Gone',
      password,
    });
    const token = await passwordToken(primary, {
      ...operator,
      email: 'gone@operator.example',
      password,
    });
    expect((await op.patch(`/users/${user.body.id}`, { status: 'DISABLED' })).status).toBe(200);
    await eventually(async () => expect(await status(replica, token)).toBe(401));
    const late = await startTenantAuth({
      database: primary.database as never,
      natsPrefix: primary.natsPrefix,
    });
    try {
      expect(await status(late, token)).toBe(401);
    } finally {
      await late.close();
    }
  });

  it('should keep tokens of the retired key valid, sign new ones with the new kid and keep both in the JWKS', async () => {
    const before = await passwordToken(primary, operator);
    const oldKid = decodeProtectedHeader(before).kid;
    const newKid = await primary.app.get(SigningKeysService).rotate('test');
    const after = await passwordToken(primary, operator);
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    const jwks = (
      await primary.app.inject({ url: '/tenant-auth/v1/.well-known/jwks.json' })
    ).json();
    expect((jwks.keys as Array<{ kid: string }>).map((k) => k.kid)).toEqual([newKid, oldKid]);
    for (const harness of [primary, replica]) {
      expect(await status(harness, before)).toBe(200);
      await eventually(async () => expect(await status(harness, after)).toBe(200));
    }
  });

  it('should fetch the JWKS at most once when a thousand tokens carry random kids', async () => {
    const verifier = new TokenVerifier({
      issuer: `${BASE_URL}/tenant-auth/v1`,
      keys: { jwksUrl: primary.jwksUrl },
    });
    const attacker = await generateKeyPair('ES256');
    const now = Math.floor(Date.now() / 1000);
    const tokens = await Promise.all(
      Array.from({ length: 1_000 }, () =>
        new SignJWT({ tid: operator.tenantId, kind: 'USER' })
          .setProtectedHeader({ alg: 'ES256', kid: randomUUID() })
          .setIssuer(`${BASE_URL}/tenant-auth/v1`)
          .setSubject(randomUUID())
          .setAudience(BASE_URL)
          .setIssuedAt(now)
          .setNotBefore(now)
          .setExpirationTime(now + 600)
          .setJti(randomUUID())
          .sign(attacker.privateKey),
      ),
    );
    const fetchesBefore = primary.jwksFetches();
    const outcomes = await Promise.allSettled(
      tokens.map((token) => verifier.verify(token, BASE_URL)),
    );
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(primary.jwksFetches() - fetchesBefore).toBeLessThanOrEqual(1);
  });
});

describe(bootstrapDefaultTenant.name, () => {
  let harness: TenantAuthHarness;
  const dataDir = mkdtempSync(join(tmpdir(), 'agp-bootstrap-'));

  beforeAll(async () => {
    harness = await startTenantAuth({ label: 'bootstrap', env: { DATA_DIR: dataDir } });
  });

  afterAll(async () => {
    await harness.close();
  });

  it('should create the default tenant once and write its credentials to a 0600 file, never to the log', async () => {
    const file = await bootstrapDefaultTenant(harness.app, { DATA_DIR: dataDir });
    expect(file).toBe(join(dataDir, 'bootstrap.json'));
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    const written = JSON.parse(readFileSync(file!, 'utf8'));
    expect(written).toMatchObject({
      tenant: 'default',
      email: 'admin@default.local',
      tokenUrl: `${BASE_URL}/tenant-auth/v1/oauth/token`,
    });
    const token = await passwordToken(harness, written);
    const permissions = await apiAs(harness, token).get('/permissions');
    expect(permissions.body).toHaveLength(19 * 4);
    await expect(
      bootstrapDefaultTenant(harness.app, { DATA_DIR: dataDir }),
    ).resolves.toBeUndefined();
    expect(harness.logs.join('')).not.toContain(written.password);
  });
});
