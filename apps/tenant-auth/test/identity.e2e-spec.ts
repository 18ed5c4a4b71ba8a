import { EVENT_TYPES } from '@agp/contracts';
import { JetStreamTransport } from '@agp/messaging';
import { TEST_NATS_URL, TestDnsServer, eventually } from '@agp/testing';
import pino from 'pino';

import { BootstrapResult } from '../src';
import {
  Api,
  TenantAuthHarness,
  apiAs,
  bootstrapTenant,
  clientToken,
  passwordToken,
  requestToken,
  startTenantAuth,
} from './tenant-auth-harness';

/** Every published event of `types` under `prefix`, as any consumer on NATS would see it. */
async function hear(prefix: string, types: readonly string[]) {
  const transport = await JetStreamTransport.connect(
    { url: TEST_NATS_URL, prefix, redelivery: { maxDeliveries: 3, backoffMs: [50] } },
    pino({ level: 'silent' }),
  );
  const seen: Array<{ type: string; data: Record<string, unknown> }> = [];
  const stop = await transport.listen(types, {
    onEvent: (envelope) => void seen.push(envelope as (typeof seen)[number]),
    onGap: () => undefined,
  });
  return {
    seen,
    close: async () => {
      stop();
      await transport.close();
    },
  };
}

describe('identity resources', () => {
  let harness: TenantAuthHarness;
  let natsPrefix: string;
  let dns: TestDnsServer;
  let adminA: BootstrapResult;
  let adminB: BootstrapResult;
  let a: Api;
  let b: Api;
  const secrets: string[] = [];

  /** A user of tenant A holding exactly these permissions, and its token. */
  async function userWith(
    permissions: Array<{ entity: string; permission: string }>,
    email: string,
  ): Promise<Api> {
    const role = await a.post('/roles', { name: `role-of-${email}`, permissions });
    const password = `pw-${email}-0123456789`;
    secrets.push(password);
    await a.post('/users', { email, displayName: email, password, roleIds: [role.body.id] });
    return apiAs(harness, await passwordToken(harness, { ...adminA, email, password }));
  }

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    const started = await startTenantAuth({ env: { DNS_RESOLVER: dns.address } });
    harness = started;
    natsPrefix = started.natsPrefix;
    adminA = await bootstrapTenant(harness, 'tenant-a');
    adminB = await bootstrapTenant(harness, 'tenant-b');
    secrets.push(adminA.password, adminB.password);
    a = apiAs(harness, await passwordToken(harness, adminA));
    b = apiAs(harness, await passwordToken(harness, adminB));
  });

  afterAll(async () => {
    await harness.close();
    await dns.stop();
  });

  describe('users', () => {
    it('should publish USER_LIFECYCLE on create, suspend and delete, without the password', async () => {
      // The relay keeps its users projection from these (D15's owner check).
      const { seen, close } = await hear(natsPrefix, ['USER_LIFECYCLE']);
      try {
        const password = 'user-lifecycle-password-0123';
        secrets.push(password);
        const created = await a.post('/users', {
          email: 'lifecycle@a.example',
          displayName: 'Life Cycle',
          password,
        });
        expect(created.status).toBe(201);
        expect((await a.patch(`/users/${created.body.id}`, { status: 'DISABLED' })).status).toBe(
          200,
        );
        expect((await a.delete(`/users/${created.body.id}`)).status).toBe(204);

        const mine = await eventually(() => {
          const found = seen.filter((event) => event.data.userId === created.body.id);
          expect(found.map((event) => event.data.change)).toEqual([
            'CREATED',
            'SUSPENDED',
            'DELETED',
          ]);
          return found;
        });
        expect(mine[0].data).toMatchObject({
          email: 'lifecycle@a.example',
          displayName: 'Life Cycle',
          status: 'ACTIVE',
        });
        expect(mine[1].data).toMatchObject({ status: 'DISABLED' });
        expect(JSON.stringify(mine)).not.toContain(password);
      } finally {
        await close();
      }
    });
  });

  describe('agents and service accounts', () => {
    it('should answer the client secret once, on creation and on rotation, and never after', async () => {
      const created = await a.post('/agents', {
        name: 'pay-bot',
        permissions: [{ entity: 'PAYMENT', permission: 'WRITE' }],
      });
      expect(created.status).toBe(201);
      expect(created.headers.location).toBe(`/tenant-auth/v1/agents/${created.body.id}`);
      const first = created.body.clientSecret as string;
      secrets.push(first);
      expect(first).toMatch(/^agp_/);
      const read = [
        await a.get(`/agents/${created.body.id}`),
        await a.get('/agents'),
        await a.patch(`/agents/${created.body.id}`, { description: 'pays' }),
      ];
      for (const answer of read) {
        expect(JSON.stringify(answer.body)).not.toContain(first);
        expect(JSON.stringify(answer.body)).not.toContain('clientSecret');
      }
      const rotated = await a.post(`/agents/${created.body.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      const second = rotated.body.clientSecret as string;
      secrets.push(second);
      expect(second).not.toBe(first);
      const old = await requestToken(harness, {
        grant_type: 'client_credentials',
        client_id: created.body.id,
        client_secret: first,
      });
      expect(old.status).toBe(401);
      await expect(clientToken(harness, created.body.id, second)).resolves.toEqual(
        expect.any(String),
      );
    });

    it('should publish AGENT_LIFECYCLE and CREDENTIAL_ROTATION without the secret', async () => {
      // Every event the outbox relay publishes, as any consumer on NATS would see it.
      const { seen, close } = await hear(natsPrefix, EVENT_TYPES);
      try {
        const created = await a.post('/agents', { name: 'audit-me' });
        secrets.push(created.body.clientSecret);
        const rotated = await a.post(`/agents/${created.body.id}/rotate-secret`);
        secrets.push(rotated.body.clientSecret);
        const mine = await eventually(() => {
          const found = seen.filter((event) => JSON.stringify(event).includes(created.body.id));
          expect(found.map((event) => event.type)).toEqual([
            'AGENT_LIFECYCLE',
            'CREDENTIAL_ROTATION',
          ]);
          return found;
        });
        expect(mine[0].data).toMatchObject({
          agentId: created.body.id,
          change: 'CREATED',
          status: 'ACTIVE',
        });
        expect(mine[1].data).toMatchObject({
          credential: 'AGENT_CLIENT_SECRET',
          subjectId: created.body.id,
        });
        expect(JSON.stringify(mine)).not.toContain(created.body.clientSecret);
        expect(JSON.stringify(mine)).not.toContain(rotated.body.clientSecret);
      } finally {
        await close();
      }
    });

    it('should issue SERVICE tokens to a service account guarded by API_KEYS', async () => {
      const created = await a.post('/service-accounts', {
        name: 'ci',
        permissions: [{ entity: 'AUDIT', permission: 'READ' }],
      });
      expect(created.status).toBe(201);
      secrets.push(created.body.clientSecret);
      const token = await clientToken(harness, created.body.id, created.body.clientSecret);
      const permissions = await apiAs(harness, token).get('/permissions');
      expect(permissions.body).toEqual([{ entity: 'AUDIT', permission: 'READ' }]);
      const registryOnly = await userWith(
        [{ entity: 'REGISTRY', permission: 'ADMIN' }],
        'registry@tenant-a.example',
      );
      const refused = await registryOnly.get('/service-accounts');
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toContain('API_KEYS:READ');
    });
  });

  describe('permissions (D10)', () => {
    it('should answer 403 naming the missing role when a token lacks it', async () => {
      const reader = await userWith(
        [{ entity: 'USERS', permission: 'READ' }],
        'reader@tenant-a.example',
      );
      expect((await reader.get('/users')).status).toBe(200);
      const cases: Array<[Promise<{ status: number; body: { detail: string } }>, string]> = [
        [reader.post('/users', { email: 'x@tenant-a.example', displayName: 'x' }), 'USERS:WRITE'],
        [reader.get('/groups'), 'GROUPS:READ'],
        [reader.get('/identity-providers'), 'IDENTITY_PROVIDERS:READ'],
        [reader.get('/agents'), 'REGISTRY:READ'],
        [reader.post('/roles', { name: 'r', permissions: [] }), 'TENANT:WRITE'],
        [
          reader.post('/tenants', { slug: 'zz', name: 'zz', adminEmail: 'a@zz.example' }),
          'TENANT:ADMIN',
        ],
      ];
      for (const [answer, role] of cases) {
        const { status, body } = await answer;
        expect(status).toBe(403);
        expect(body.detail).toContain(role);
      }
    });

    it("should answer operation 2 with the caller's own entries, expanded and sorted", async () => {
      const writer = await userWith(
        [
          { entity: 'AUDIT', permission: 'WRITE' },
          { entity: 'AGENT_METADATA', permission: 'DELETE' },
        ],
        'writer@tenant-a.example',
      );
      expect((await writer.get('/permissions')).body).toEqual([
        { entity: 'AGENT_METADATA', permission: 'DELETE' },
        { entity: 'AGENT_METADATA', permission: 'READ' },
        { entity: 'AUDIT', permission: 'READ' },
        { entity: 'AUDIT', permission: 'WRITE' },
      ]);
    });

    it('should refuse to grant what the caller does not hold (identity.md I4)', async () => {
      const userAdmin = await userWith(
        [
          { entity: 'USERS', permission: 'ADMIN' },
          { entity: 'TENANT', permission: 'WRITE' },
          { entity: 'REGISTRY', permission: 'WRITE' },
        ],
        'ua@tenant-a.example',
      );
      const role = await userAdmin.post('/roles', {
        name: 'sneaky',
        permissions: [{ entity: 'AUDIT', permission: 'ADMIN' }],
      });
      expect(role.status).toBe(403);
      const agent = await userAdmin.post('/agents', {
        name: 'sneaky-bot',
        permissions: [{ entity: 'TENANT', permission: 'ADMIN' }],
      });
      expect(agent.status).toBe(403);
      const fine = await userAdmin.post('/roles', {
        name: 'fine',
        permissions: [{ entity: 'USERS', permission: 'READ' }],
      });
      expect(fine.status).toBe(201);
    });

    it('should give a user the roles of its groups when it joins one', async () => {
      const role = await a.post('/roles', {
        name: 'auditors',
        permissions: [{ entity: 'AUDIT', permission: 'READ' }],
      });
      const group = await a.post('/groups', { name: 'audit-team', roleIds: [role.body.id] });
      const password = 'member-password-123';
      const user = await a.post('/users', {
        email: 'member@tenant-a.example',
        displayName: 'Member',
        password,
      });
      const added = await a.post(`/groups/${group.body.id}/members`, { userId: user.body.id });
      expect(added.status).toBe(201);
      const members = await a.get(`/groups/${group.body.id}/members`);
      expect(members.body).toMatchObject({
        total: 1,
        items: [{ userId: user.body.id, email: 'member@tenant-a.example' }],
      });
      const member = apiAs(
        harness,
        await passwordToken(harness, { ...adminA, email: 'member@tenant-a.example', password }),
      );
      expect((await member.get('/permissions')).body).toEqual([
        { entity: 'AUDIT', permission: 'READ' },
      ]);
      expect((await a.delete(`/groups/${group.body.id}/members/${user.body.id}`)).status).toBe(204);
      expect((await a.delete(`/groups/${group.body.id}/members/${user.body.id}`)).status).toBe(404);
    });
  });

  describe('tenant isolation', () => {
    it("should answer 404 when tenant B's token names tenant A's resources by id", async () => {
      const role = await a.post('/roles', { name: 'iso', permissions: [] });
      const resources: Array<[string, string]> = [
        [
          '/users',
          (await a.post('/users', { email: 'iso@tenant-a.example', displayName: 'iso' })).body.id,
        ],
        ['/groups', (await a.post('/groups', { name: 'iso' })).body.id],
        ['/roles', role.body.id],
        ['/agents', (await a.post('/agents', { name: 'iso-bot' })).body.id],
        ['/service-accounts', (await a.post('/service-accounts', { name: 'iso-sa' })).body.id],
        [
          '/identity-providers',
          (
            await a.post('/identity-providers', {
              alias: 'iso',
              displayName: 'iso',
              config: { type: 'OKTA', clientId: 'c' },
            })
          ).body.id,
        ],
        ['/tenants', adminA.tenantId],
      ];
      for (const [collection, id] of resources) {
        expect([collection, (await b.get(`${collection}/${id}`)).status]).toEqual([
          collection,
          404,
        ]);
        expect([collection, (await b.patch(`${collection}/${id}`, {})).status]).toEqual([
          collection,
          404,
        ]);
        expect([collection, (await b.delete(`${collection}/${id}`)).status]).toEqual([
          collection,
          404,
        ]);
        expect([collection, (await a.get(`${collection}/${id}`)).status]).toEqual([
          collection,
          200,
        ]);
      }
      expect((await b.get(`/groups/${resources[1][1]}/members`)).status).toBe(404);
      expect((await b.post(`/agents/${resources[3][1]}/rotate-secret`)).status).toBe(404);
    });

    it('should list only the caller tenant for a non-operator and refuse to create tenants', async () => {
      const listed = await b.get('/tenants');
      expect((listed.body.items as Array<{ slug: string }>).map((t) => t.slug)).toEqual([
        'tenant-b',
      ]);
      expect(
        (await b.post('/tenants', { slug: 'nope', name: 'nope', adminEmail: 'a@nope.example' }))
          .status,
      ).toBe(403);
      const all = await a.get('/tenants?pageSize=100');
      expect((all.body.items as Array<{ slug: string }>).map((t) => t.slug)).toEqual(
        expect.arrayContaining(['tenant-a', 'tenant-b']),
      );
    });
  });

  describe('lists', () => {
    it('should page and filter users', async () => {
      for (const name of ['list-1', 'list-2', 'list-3']) {
        await a.post('/users', {
          email: `${name}@lists.example`,
          displayName: name,
          status: name === 'list-3' ? 'DISABLED' : 'ACTIVE',
        });
      }
      const page = await a.get('/users?q=lists.example&pageSize=2&page=2');
      expect(page.body).toMatchObject({
        page: 2,
        pageSize: 2,
        total: 3,
        items: [{ email: 'list-3@lists.example' }],
      });
      const disabled = await a.get('/users?status=DISABLED&q=lists');
      expect((disabled.body.items as Array<{ email: string }>).map((u) => u.email)).toEqual([
        'list-3@lists.example',
      ]);
      expect((await a.get('/users?pageSize=101')).status).toBe(400);
      expect((await a.get('/users?colour=red')).status).toBe(400);
    });

    it('should answer 409 for a duplicate name and 400 for an unknown property', async () => {
      expect((await a.post('/groups', { name: 'dup' })).status).toBe(201);
      expect((await a.post('/groups', { name: 'dup' })).status).toBe(409);
      const unknown = await a.post('/groups', { name: 'x', colour: 'red' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toContainEqual(expect.objectContaining({ field: 'colour' }));
    });
  });

  describe('identity providers (operation 5, D26, D29)', () => {
    it('should keep clientSecret write-only and list providers as a plain array', async () => {
      const secret = 'idp-client-secret-value';
      const created = await a.post('/identity-providers', {
        alias: 'okta',
        displayName: 'Okta',
        config: {
          type: 'OKTA',
          clientId: 'client-1',
          clientSecret: secret,
          issuer: 'https://acme.okta.com',
        },
      });
      expect(created.status).toBe(201);
      expect(created.body.config).toEqual({
        type: 'OKTA',
        clientId: 'client-1',
        clientSecret: '********',
        issuer: 'https://acme.okta.com',
      });
      const listed = await a.get('/identity-providers');
      expect(Array.isArray(listed.body)).toBe(true);
      expect(JSON.stringify(listed.body)).not.toContain(secret);
      const cleared = await a.patch(`/identity-providers/${created.body.id}`, {
        config: { clientSecret: '' },
      });
      expect(cleared.body.config.clientSecret).toBeUndefined();
      expect(
        (
          await a.post('/identity-providers', {
            alias: 'bad',
            displayName: 'b',
            config: { type: 'GITHUB', clientId: 'c' },
          })
        ).status,
      ).toBe(400);
      expect((await b.get('/identity-providers')).body).toEqual([]);
    });

    it('should accept group mappings to the tenant groups only', async () => {
      const group = await a.post('/groups', { name: 'eng-admins' });
      const foreign = await b.post('/groups', { name: 'b-group' });
      const bad = await a.post('/identity-providers', {
        alias: 'entra',
        displayName: 'Entra',
        config: { type: 'MICROSOFT_ENTRA_ID', clientId: 'c' },
        groupMappings: { 'eng-admins': [group.body.id], other: [foreign.body.id] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'groupMappings.other' })]);
      const good = await a.post('/identity-providers', {
        alias: 'entra',
        displayName: 'Entra',
        config: { type: 'MICROSOFT_ENTRA_ID', clientId: 'c' },
        groupMappings: { 'eng-admins': [group.body.id] },
      });
      expect(good.status).toBe(201);
      expect(good.body.groupMappings).toEqual({ 'eng-admins': [group.body.id] });
      expect(
        (
          await a.post('/identity-providers', {
            alias: 'm',
            displayName: 'm',
            config: { type: 'OKTA', clientId: 'c' },
            groupMappings: { x: 'y' },
          })
        ).status,
      ).toBe(400);
    });

    it('should verify an e-mail domain through its TXT record and record each check', async () => {
      const created = await a.post('/identity-providers', {
        alias: 'google',
        displayName: 'Google',
        config: { type: 'GOOGLE_WORKSPACE', clientId: 'c' },
        emailDomains: ['Acme.Example'],
      });
      const [domain] = created.body.emailDomains;
      expect(domain).toMatchObject({
        domain: 'acme.example',
        expectedTxtRecordName: '_agp-challenge.acme.example',
        expectedTxtRecordValue: expect.stringMatching(/^agp-domain-verification=/),
        verifiedAt: null,
        lastCheckedAt: null,
        lastCheckError: null,
      });
      const verify = `/identity-providers/${created.body.id}/email-domains/acme.example/verify`;
      const missing = await a.post(verify);
      expect(missing.status).toBe(200);
      expect(missing.body.emailDomains[0]).toMatchObject({
        verifiedAt: null,
        lastCheckedAt: expect.any(String),
        lastCheckError: expect.stringContaining('ENOTFOUND'),
      });
      dns.txt.set('_agp-challenge.acme.example', ['unrelated', domain.expectedTxtRecordValue]);
      const verified = await a.post(verify);
      expect(verified.body.emailDomains[0]).toMatchObject({
        verifiedAt: expect.any(String),
        lastCheckError: null,
      });
      const kept = await a.patch(`/identity-providers/${created.body.id}`, {
        emailDomains: ['acme.example', 'other.example'],
      });
      expect(
        (kept.body.emailDomains as Array<{ verifiedAt: string | null }>).map(
          (d) => d.verifiedAt !== null,
        ),
      ).toEqual([true, false]);
      expect(
        (await a.post(`/identity-providers/${created.body.id}/email-domains/nope.example/verify`))
          .status,
      ).toBe(404);
    });
  });

  it('should never write a password or client secret into the log', () => {
    const log = harness.logs.join('');
    for (const secret of secrets) {
      expect(log).not.toContain(secret);
    }
  });
});
