import { randomUUID } from 'node:crypto';

import { LicenceVerifierOptions, verifyLicence } from '@agp/agent-sdk';
import { ServedAgent, serveAgent } from '@agp/agent-sdk/server';
import { Database } from '@agp/database';
import { LicenceKeys, Licences, RELAY_DATABASE } from '@agp/relay';
import { eventually } from '@agp/testing';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';

import { MarketTenant, answerText } from './marketplace/marketplace-world';
import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld } from './mcp/mcp-world';

/**
 * Issue 40 "Must show", the licence half (D47, D59): a LICENSED listing's installation holds a
 * licence the relay checks on every call and the publisher's agent verifies offline (MK20–MK28).
 */
describe('marketplace licences (embedded)', () => {
  let platform: McpPlatform;
  let served: ServedAgent;
  let publisher: MarketTenant;
  let installer: MarketTenant;
  const offline: LicenceVerifierOptions = {};
  let listingId: string;
  let install: { installationId: string; agentId: string; licence?: string };

  beforeAll(async () => {
    platform = await startMcpPlatform('embedded');
    offline.jwksUrl = `${platform.baseUrl}/relay/v1/licences/keys`;
    served = await serveAgent({
      name: 'licensed ledger',
      respond: async (text) => `licensed: ${text}`,
      host: '127.0.0.1',
      port: 0,
      licence: offline,
    });
    publisher = new MarketTenant(await McpWorld.create(platform));
    installer = new MarketTenant(await McpWorld.create(platform));
    const target = await publisher.publicAgent(`${served.url}/.well-known/agent-card.json`);
    const listing = await publisher.publish(target.id, {
      terms: { type: 'LICENSED', licenceValiditySeconds: 3600 },
    });
    listingId = String(listing.id);
    offline.listingId = listingId;
    install = await installer.install(listingId);
    // Starting the platform on a shared machine can take longer than one test may.
  }, 180_000);

  afterAll(async () => {
    await served?.close();
    await platform?.close();
  });

  function verify(licence: string, extra: Json = {}) {
    return installer.world.ok<Json>(
      'POST',
      '/relay/v1/licences/verify',
      { licence, ...extra },
      200,
    );
  }

  function inProcess<T>(type: new (...args: never[]) => T): T {
    return platform.tenantAuth.get(type, { strict: false });
  }

  /** A licence the platform signed with `exp` in the past (the platform's own key, MK21). */
  async function expiredLicence(): Promise<string> {
    const database = inProcess<Database>(RELAY_DATABASE as never);
    const now = Math.floor(Date.now() / 1000);
    const { token } = await database.asSystem((tx) =>
      inProcess(LicenceKeys).sign(tx, {
        jti: randomUUID(),
        listingId,
        tenantId: installer.world.tenantId,
        installationId: install.installationId,
        entitlements: ['a2a:call'],
        iat: now - 120,
        exp: now - 60,
      }),
    );
    return token;
  }

  it('should issue a licence that verifies online and offline, and carry it to the publisher agent', async () => {
    const caller = await installer.callerOf(install.agentId);

    const online = await verify(install.licence!, {
      listingId,
      tenantId: installer.world.tenantId,
    });
    const local = await verifyLicence(install.licence, offline);
    const answer = await installer.call(caller, install.agentId, 'balance please');
    const keys = await fetch(String(offline.jwksUrl));
    const direct = await fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: {} }),
    }).then((r) => r.json() as Promise<Json>);

    expect(online).toMatchObject({
      valid: true,
      claims: { listingId, tenantId: installer.world.tenantId, entitlements: ['a2a:call'] },
    });
    expect(local).toMatchObject({ valid: true, claims: { listingId } });
    expect(answerText(answer.body)).toContain('licensed: balance please');
    expect(keys.status).toBe(200);
    expect(((await keys.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    // Without the relay's licence the agent itself refuses (MK28).
    expect(direct).toMatchObject({ error: { code: -31008, data: { agpCode: 'licence_invalid' } } });
  });

  it('should refuse a forged, an expired, another tenant and another listing licence', async () => {
    const [header, payload, signature] = install.licence!.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Json;
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, tenantId: publisher.world.tenantId })).toString('base64url')}.${signature}`;
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const kid = (JSON.parse(Buffer.from(header, 'base64url').toString()) as Json).kid as string;
    const selfSigned = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'agp-licence+jwt' })
      .sign(privateKey);
    const expired = await expiredLicence();

    const answers = {
      tampered: await verify(tampered),
      selfSigned: await verify(selfSigned),
      expired: await verify(expired),
      otherTenant: await verify(install.licence!, { tenantId: publisher.world.tenantId }),
      otherListing: await verify(install.licence!, { listingId: randomUUID() }),
      offlineForged: await verifyLicence(selfSigned, offline),
      offlineExpired: await verifyLicence(expired, offline),
      offlineOtherTenant: await verifyLicence(install.licence, {
        ...offline,
        tenantId: randomUUID(),
      }),
    };

    expect(await exportJWK(publicKey)).toBeDefined();
    expect(answers.tampered).toMatchObject({ valid: false, reason: 'signature' });
    expect(answers.selfSigned).toMatchObject({ valid: false, reason: 'signature' });
    expect(answers.expired).toMatchObject({ valid: false, reason: 'expired' });
    expect(answers.otherTenant).toMatchObject({ valid: false, reason: 'wrong_tenant' });
    expect(answers.otherListing).toMatchObject({ valid: false, reason: 'wrong_listing' });
    expect(answers.offlineForged).toMatchObject({ valid: false, reason: 'signature' });
    expect(answers.offlineExpired).toMatchObject({ valid: false, reason: 'expired' });
    expect(answers.offlineOtherTenant).toMatchObject({ valid: false, reason: 'wrong_tenant' });
  });

  it('should refuse calls under a revoked or an expired licence with -31008, audited, until renewed', async () => {
    const caller = await installer.callerOf(install.agentId);
    const [current] = (
      await installer.world.ok<{ items: Json[] }>(
        'GET',
        `/relay/v1/marketplace/installations/${install.installationId}/licences`,
      )
    ).items;
    await publisher.world.ok(
      'POST',
      `/relay/v1/licences/${String(current.id)}/revoke`,
      undefined,
      200,
    );
    const correlationId = randomUUID();
    const revoked = await eventually(async () => {
      const answer = await installer.call(caller, install.agentId, 'after revoke', correlationId);
      expect(answer.body).toMatchObject({ error: { code: -31008 } });
      return answer;
    });
    const renewed = await installer.world.ok<Json>(
      'POST',
      `/relay/v1/marketplace/installations/${install.installationId}/licences`,
    );
    const afterRenewal = await eventually(async () => {
      const answer = await installer.call(caller, install.agentId, 'after renewal');
      expect(answer.body).toHaveProperty('result');
      return answer;
    });
    // An expired licence as the newest one: the relay refuses before anything crosses.
    const database = inProcess<Database>(RELAY_DATABASE as never);
    await database.asSystem((tx) =>
      inProcess(Licences).issue(tx, {
        installationId: install.installationId,
        listingId,
        tenantId: installer.world.tenantId,
        publisherTenantId: publisher.world.tenantId,
        validitySeconds: -60,
        entitlements: ['a2a:call'],
      }),
    );
    const expired = await installer.call(caller, install.agentId, 'after expiry');

    expect(revoked.body).toMatchObject({
      error: {
        data: { agpCode: 'licence_invalid', reasons: [expect.stringContaining('revoked')] },
      },
    });
    expect(await verify(String(current.token))).toMatchObject({ valid: false, reason: 'revoked' });
    expect(renewed.token).toEqual(expect.any(String));
    expect(answerText(afterRenewal.body)).toContain('licensed: after renewal');
    expect(expired.body).toMatchObject({
      error: { code: -31008, data: { reasons: [expect.stringContaining('expired')] } },
    });
    const trail = await installer.world.trace(correlationId, (items) =>
      items.some((e) => e.action === 'BLOCK'),
    );
    expect(trail.find((e) => e.action === 'BLOCK')).toMatchObject({
      details: expect.objectContaining({ agpCode: 'licence_invalid', licenceReason: 'revoked' }),
    });
    await installer.world.ok(
      'POST',
      `/relay/v1/marketplace/installations/${install.installationId}/licences`,
    );
  });

  it('should keep licences signed before a key rotation valid until they expire', async () => {
    const before = await installer.world.ok<Json>(
      'POST',
      `/relay/v1/marketplace/installations/${install.installationId}/licences`,
    );
    const oldKid = kidOf(String(before.token));

    const newKid = await inProcess(LicenceKeys).rotate();
    const after = await installer.world.ok<Json>(
      'POST',
      `/relay/v1/marketplace/installations/${install.installationId}/licences`,
    );
    const jwks = (await fetch(String(offline.jwksUrl)).then((r) => r.json())) as {
      keys: Array<{ kid: string }>;
    };

    expect(newKid).not.toBe(oldKid);
    expect(kidOf(String(after.token))).toBe(newKid);
    expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
    expect(await verify(String(before.token))).toMatchObject({ valid: true });
    expect(await verifyLicence(String(before.token), { ...offline })).toMatchObject({
      valid: true,
    });
    expect(await verifyLicence(String(after.token), { ...offline })).toMatchObject({ valid: true });
  });
});

function kidOf(token: string): string {
  return String((JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as Json).kid);
}
