import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { LOG_POLICY } from './mcp/mcp-policies';
import { Json, McpWorld } from './mcp/mcp-world';

const REDACTED = '[redacted]';

interface Changed {
  /** The target's id: the `sinkId` its events are found by. */
  id: string;
  /** Fields the change step changed: one event lists each of them. */
  updated: string[];
  /** A field holding a secret that the change step replaced: recorded redacted, never its value. */
  secretField?: string;
  /** Every secret value sent: none may appear in any event. */
  secrets: string[];
  /** Events the steps record for the target. */
  count: number;
  /** Which of them, in chain order, records the change step (the middle one of three by default). */
  changeIndex?: number;
}

interface AdministeredKind {
  eventType: string;
  /** The target kind: the event's `sinkType`. */
  targetKind: string;
  /** Creates, changes and deletes one resource of the kind as the tenant administrator. */
  change(world: McpWorld): Promise<Changed>;
}

function sequenceOf(event: Json): number {
  return Number((event.chain as { sequence: number }).sequence);
}

const name = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;

/** What an auditor of issue 30 tries for each administered resource kind (D42). */
const KINDS: Record<string, AdministeredKind> = {
  user: {
    eventType: 'ADMIN_CHANGE',
    targetKind: 'USER',
    change: async (world) => {
      const [first, second] = [`Pw-${randomUUID()}`, `Pw-${randomUUID()}`];
      const user = await world.ok<Json>('POST', '/tenant-auth/v1/users', {
        email: `${name('u')}@acme.example`,
        displayName: 'Ada',
        password: first,
      });
      const id = String(user.id);
      await world.ok('PATCH', `/tenant-auth/v1/users/${id}`, {
        displayName: 'Ada L.',
        password: second,
        status: 'DISABLED',
      });
      await world.ok('DELETE', `/tenant-auth/v1/users/${id}`);
      return {
        id,
        updated: ['displayName', 'passwordHash', 'status'],
        secretField: 'passwordHash',
        secrets: [first, second],
        count: 3,
      };
    },
  },
  group: {
    eventType: 'ADMIN_CHANGE',
    targetKind: 'GROUP',
    change: async (world) => {
      const group = await world.ok<Json>('POST', '/tenant-auth/v1/groups', { name: name('g') });
      const id = String(group.id);
      await world.ok('PATCH', `/tenant-auth/v1/groups/${id}`, { description: 'on call' });
      await world.ok('DELETE', `/tenant-auth/v1/groups/${id}`);
      return { id, updated: ['description'], secrets: [], count: 3 };
    },
  },
  'group member': {
    eventType: 'ADMIN_CHANGE',
    targetKind: 'GROUP_MEMBER',
    change: async (world) => {
      const group = await world.ok<Json>('POST', '/tenant-auth/v1/groups', { name: name('g') });
      const user = await world.ok<Json>('POST', '/tenant-auth/v1/users', {
        email: `${name('m')}@acme.example`,
        displayName: 'Mo',
      });
      const path = `/tenant-auth/v1/groups/${String(group.id)}/members`;
      await world.ok('POST', path, { userId: user.id });
      await world.ok('DELETE', `${path}/${String(user.id)}`);
      return { id: String(user.id), updated: [], secrets: [], count: 2 };
    },
  },
  role: {
    eventType: 'ADMIN_CHANGE',
    targetKind: 'ROLE',
    change: async (world) => {
      const role = await world.ok<Json>('POST', '/tenant-auth/v1/roles', {
        name: name('r'),
        permissions: [{ entity: 'AUDIT', permission: 'READ' }],
      });
      const id = String(role.id);
      await world.ok('PATCH', `/tenant-auth/v1/roles/${id}`, {
        permissions: [
          { entity: 'AUDIT', permission: 'READ' },
          { entity: 'TENANT', permission: 'ADMIN' },
        ],
      });
      await world.ok('DELETE', `/tenant-auth/v1/roles/${id}`);
      return { id, updated: ['permissions'], secrets: [], count: 3 };
    },
  },
  'identity provider': {
    eventType: 'ADMIN_CHANGE',
    targetKind: 'IDENTITY_PROVIDER',
    change: async (world) => {
      const [first, second] = [`idp-${randomUUID()}`, `idp-${randomUUID()}`];
      const provider = await world.ok<Json>('POST', '/tenant-auth/v1/identity-providers', {
        alias: name('okta'),
        displayName: 'Okta',
        config: { type: 'OKTA', clientId: 'c-1', clientSecret: first, issuer: 'https://a.example' },
      });
      const id = String(provider.id);
      await world.ok('PATCH', `/tenant-auth/v1/identity-providers/${id}`, {
        displayName: 'Okta SSO',
        config: { clientSecret: second },
      });
      await world.ok('DELETE', `/tenant-auth/v1/identity-providers/${id}`);
      return {
        id,
        updated: ['displayName', 'clientSecretSealed'],
        secretField: 'clientSecretSealed',
        secrets: [first, second],
        count: 3,
      };
    },
  },
  'service account': {
    eventType: 'ADMIN_CHANGE',
    targetKind: 'SERVICE_ACCOUNT',
    change: async (world) => {
      const account = await world.ok<Json>('POST', '/tenant-auth/v1/service-accounts', {
        name: name('ci'),
      });
      const id = String(account.id);
      await world.ok('PATCH', `/tenant-auth/v1/service-accounts/${id}`, {
        status: 'SUSPENDED',
        description: 'paused',
      });
      await world.ok('DELETE', `/tenant-auth/v1/service-accounts/${id}`);
      return {
        id,
        updated: ['description', 'status'],
        secrets: [String(account.clientSecret)],
        count: 3,
      };
    },
  },
  agent: {
    eventType: 'AGENT_LIFECYCLE',
    targetKind: 'AGENT',
    change: async (world) => {
      const agent = await world.ok<Json>('POST', '/tenant-auth/v1/agents', { name: name('a') });
      const id = String(agent.id);
      await world.ok('PATCH', `/tenant-auth/v1/agents/${id}`, { description: 'triage' });
      await world.ok('DELETE', `/tenant-auth/v1/agents/${id}`);
      return { id, updated: ['description'], secrets: [String(agent.clientSecret)], count: 3 };
    },
  },
  'agent credential': {
    eventType: 'CREDENTIAL_ROTATION',
    targetKind: 'AGENT',
    change: async (world) => {
      const agent = await world.ok<Json>('POST', '/tenant-auth/v1/agents', { name: name('a') });
      const id = String(agent.id);
      const rotated = await world.ok<Json>(
        'POST',
        `/tenant-auth/v1/agents/${id}/rotate-secret`,
        undefined,
        200,
      );
      return {
        id,
        updated: ['secretHash', 'secretRotatedAt'],
        secretField: 'secretHash',
        secrets: [String(agent.clientSecret), String(rotated.clientSecret)],
        count: 1,
      };
    },
  },
  tenant: {
    eventType: 'ADMIN_CHANGE',
    targetKind: 'TENANT',
    change: async (world) => {
      await world.ok('PATCH', `/tenant-auth/v1/tenants/${world.tenantId}`, { name: name('Acme') });
      return { id: world.tenantId, updated: ['name'], secrets: [], count: 1 };
    },
  },
  'other tenant': {
    eventType: 'ADMIN_CHANGE',
    targetKind: 'TENANT',
    // The operator's administrators manage other tenants; the record is in the operator's trail.
    change: async (world) => {
      const password = `Pw-${randomUUID()}`;
      const slug = name('t');
      const tenant = await world.ok<Json>('POST', '/tenant-auth/v1/tenants', {
        slug,
        name: 'Beta',
        adminEmail: `admin@${slug}.example`,
        adminPassword: password,
      });
      const id = String(tenant.id);
      await world.ok('PATCH', `/tenant-auth/v1/tenants/${id}`, { status: 'SUSPENDED' });
      await world.ok('DELETE', `/tenant-auth/v1/tenants/${id}`);
      return { id, updated: ['status'], secrets: [password], count: 3 };
    },
  },
  'agent webhook secret': {
    eventType: 'CREDENTIAL_ROTATION',
    targetKind: 'AGENT',
    change: async (world) => {
      const agent = await world.agent();
      const set = await world.ok<Json>('PATCH', `/relay/v1/agents/${agent.id}`, {
        webhookUrl: 'https://hooks.acme.example/agp',
      });
      const rotated = await world.ok<Json>(
        'POST',
        `/relay/v1/agents/${agent.id}/webhook-secret/rotate`,
        undefined,
        200,
      );
      return {
        id: agent.id,
        updated: ['webhookSecret'],
        secretField: 'webhookSecret',
        secrets: [String(set.webhookSecret), String(rotated.webhookSecret)],
        count: 1,
      };
    },
  },
  'detection pattern': {
    eventType: 'ADMIN_CHANGE',
    targetKind: 'DETECTION_PATTERN',
    change: async (world) => {
      const pattern = await world.ok<Json>('POST', '/relay/v1/detection-patterns', {
        set: name('tickets'),
        label: 'TICKET',
        pattern: 'TCK-[0-9]{6}',
      });
      const id = String(pattern.id);
      await world.ok('PATCH', `/relay/v1/detection-patterns/${id}`, { mode: 'MUST_NOT_MATCH' });
      await world.ok('DELETE', `/relay/v1/detection-patterns/${id}`);
      return { id, updated: ['mode'], secrets: [], count: 3 };
    },
  },
  channel: {
    eventType: 'ADMIN_CHANGE',
    targetKind: 'CHANNEL',
    change: async (world) => {
      const channel = await world.ok<Json>('POST', '/relay/v1/channels', {
        name: name('support'),
        kind: 'SLACK',
      });
      const id = String(channel.id);
      await world.ok('PATCH', `/relay/v1/channels/${id}`, { kind: 'TEAMS' });
      await world.ok('DELETE', `/relay/v1/channels/${id}`);
      return { id, updated: ['kind'], secrets: [], count: 3 };
    },
  },
  'MCP server': {
    eventType: 'MCP_LIFECYCLE',
    targetKind: 'MCP_SERVER',
    change: async (world) => {
      const [first, second] = [`mcp-${randomUUID()}`, `mcp-${randomUUID()}`];
      const id = await world.mcpServer('https://tools.acme.example/mcp', { credential: first });
      await world.ok('PATCH', `/relay/v1/mcp-servers/${id}`, { credential: second });
      await world.ok('DELETE', `/relay/v1/mcp-servers/${id}`);
      return {
        id,
        updated: ['credential'],
        secretField: 'credential',
        secrets: [first, second],
        count: 3,
      };
    },
  },
  'LLM provider': {
    eventType: 'LLM_LIFECYCLE',
    targetKind: 'LLM_PROVIDER',
    change: async (world) => {
      const [first, second] = [`sk-${randomUUID()}`, `sk-${randomUUID()}`];
      const provider = await world.ok<Json>('POST', '/relay/v1/llm-providers', {
        name: name('openai'),
        baseUrl: 'https://llm.acme.example/v1',
        apiKey: first,
      });
      const id = String(provider.id);
      await world.ok('PATCH', `/relay/v1/llm-providers/${id}`, {
        apiKey: second,
        timeoutMs: 5_000,
      });
      await world.ok('DELETE', `/relay/v1/llm-providers/${id}`);
      return {
        id,
        updated: ['apiKey', 'timeoutMs'],
        secretField: 'apiKey',
        secrets: [first, second],
        count: 3,
      };
    },
  },
  'LLM gateway': {
    eventType: 'LLM_LIFECYCLE',
    targetKind: 'LLM_GATEWAY',
    change: async (world) => {
      const provider = await world.ok<Json>('POST', '/relay/v1/llm-providers', {
        name: name('upstream'),
        baseUrl: 'https://llm.acme.example/v1',
      });
      const gateway = await world.ok<Json>('POST', '/relay/v1/llm-gateways', {
        name: name('gw'),
        providers: [provider.id],
      });
      const id = String(gateway.id);
      await world.ok('PATCH', `/relay/v1/llm-gateways/${id}`, { description: 'chat' });
      await world.ok('DELETE', `/relay/v1/llm-gateways/${id}`);
      return { id, updated: ['description'], secrets: [], count: 3 };
    },
  },
  'governance record': {
    eventType: 'GOVERNANCE_LIFECYCLE',
    targetKind: 'AGENT',
    change: async (world) => {
      const agent = await world.agent();
      const record = await eventually(() =>
        world.ok<Json>('POST', '/relay/v1/governance/records', {
          subjectType: 'AGENT',
          subjectId: agent.id,
          riskTier: 'LOW',
        }),
      );
      const path = `/relay/v1/governance/records/${String(record.id)}`;
      await world.ok('PATCH', path, { riskTier: 'CRITICAL' });
      await world.ok('DELETE', path);
      return { id: agent.id, updated: ['riskTier'], secrets: [], count: 3 };
    },
  },
  'traffic settings': {
    eventType: 'ADMIN_CHANGE',
    targetKind: 'TRAFFIC_SETTINGS',
    change: async (world) => {
      await world.ok('PATCH', '/relay/v1/traffic-settings', {
        rateLimits: { agentPerMinute: 77 },
        contentCapture: true,
      });
      return {
        id: world.tenantId,
        updated: ['rateLimits', 'contentCapture'],
        secrets: [],
        count: 1,
      };
    },
  },
  'policy group': {
    eventType: 'POLICY_LIFECYCLE',
    targetKind: 'POLICY_GROUP',
    change: async (world) => {
      const group = await world.ok<Json>('POST', '/relay/v1/policy-groups', { name: name('pii') });
      const id = String(group.id);
      await world.ok('PATCH', `/relay/v1/policy-groups/${id}`, { description: 'masks PII' });
      await world.ok('DELETE', `/relay/v1/policy-groups/${id}`);
      return { id, updated: ['description'], secrets: [], count: 3 };
    },
  },
  'policy version': {
    eventType: 'POLICY_LIFECYCLE',
    targetKind: 'POLICY_VERSION',
    change: async (world) => {
      const group = await world.ok<Json>('POST', '/relay/v1/policy-groups', { name: name('v') });
      const path = `/relay/v1/policy-groups/${String(group.id)}/versions`;
      const version = await world.ok<Json>('POST', path, { regoSource: LOG_POLICY });
      await world.ok('POST', `${path}/${String(version.version)}/retire`, undefined, 200);
      return {
        id: String(version.id),
        updated: ['retiredAt'],
        secrets: [],
        count: 2,
        changeIndex: 1,
      };
    },
  },
  'policy binding': {
    eventType: 'POLICY_LIFECYCLE',
    targetKind: 'POLICY_BINDING',
    change: async (world) => {
      const group = await world.ok<Json>('POST', '/relay/v1/policy-groups', { name: name('b') });
      await world.ok('POST', `/relay/v1/policy-groups/${String(group.id)}/versions`, {
        regoSource: LOG_POLICY,
      });
      const binding = await world.ok<Json>('POST', '/relay/v1/policy-bindings', {
        groupId: group.id,
        bindingLevel: 'TENANT',
      });
      const id = String(binding.bindingId);
      await world.ok('PATCH', `/relay/v1/policy-bindings/${id}`, { priority: 7 });
      await world.ok('DELETE', `/relay/v1/policy-bindings/${id}`);
      return { id, updated: ['priority'], secrets: [], count: 3 };
    },
  },
  'policy settings': {
    eventType: 'POLICY_LIFECYCLE',
    targetKind: 'POLICY_SETTINGS',
    change: async (world) => {
      await world.ok('PATCH', '/relay/v1/policy-settings', { failOpen: true });
      return { id: world.tenantId, updated: ['failOpen'], secrets: [], count: 1 };
    },
  },
  'kill switch': {
    eventType: 'GOVERNANCE_LIFECYCLE',
    targetKind: 'CHANNEL',
    change: async (world) => {
      const channel = await world.ok<Json>('POST', '/relay/v1/channels', {
        name: name('halt'),
        kind: 'WEB',
      });
      const engaged = await world.ok<Json>('POST', '/relay/v1/kill-switches', {
        scope: 'CHANNEL',
        targetId: channel.id,
        reason: 'incident 42',
      });
      await world.ok('DELETE', `/relay/v1/kill-switches/${String(engaged.id)}`);
      return {
        id: String(channel.id),
        updated: ['status', 'releasedAt'],
        secrets: [],
        count: 2,
        changeIndex: 1,
      };
    },
  },
  subscription: {
    eventType: 'AGENT_LIFECYCLE',
    targetKind: 'AGENT',
    change: async (world) => {
      const agent = await world.agent();
      const server = await world.mcpServer('https://tools.acme.example/mcp');
      const id = await world.subscribe(agent.id, server, ['search']);
      await world.ok('PATCH', `/relay/v1/subscriptions/${id}`, { tools: ['search', 'fetch'] });
      await world.ok('DELETE', `/relay/v1/subscriptions/${id}`);
      // The agent's own creation, then the subscription's three changes, as the agent's lifecycle.
      return { id: agent.id, updated: ['tools'], secrets: [], count: 4, changeIndex: 2 };
    },
  },
  'monitor mute': {
    eventType: 'MONITOR_MUTED',
    targetKind: 'MONITOR_MUTE',
    change: async (world) => {
      const mute = await world.ok<Json>('POST', '/audit/v1/monitors/mutes', {
        scope: 'DETECTOR',
        detector: 'AGENT_VOLUME_ANOMALY',
        reason: 'load test tonight',
      });
      return { id: String(mute.id), updated: ['reason', 'detector'], secrets: [], count: 1 };
    },
  },
  'evaluation pack': {
    eventType: 'ADMIN_CHANGE',
    targetKind: 'EVALUATION_PACK',
    change: async (world) => {
      const pack = await world.ok<Json>('POST', '/relay/v1/evaluation-packs', {
        name: name('smoke'),
      });
      const id = String(pack.id);
      await world.ok('PATCH', `/relay/v1/evaluation-packs/${id}`, { enabled: false });
      await world.ok('DELETE', `/relay/v1/evaluation-packs/${id}`);
      return { id, updated: ['enabled'], secrets: [], count: 3 };
    },
  },
  'retention policy': {
    eventType: 'RETENTION_POLICY_CHANGED',
    targetKind: 'RETENTION_POLICY',
    change: async (world) => {
      await world.ok('PUT', '/audit/v1/retention', {
        days: { TRAFFIC: 30 },
        captureContent: true,
      });
      return { id: world.tenantId, updated: ['days', 'captureContent'], secrets: [], count: 1 };
    },
  },
  'monitor settings': {
    eventType: 'MONITOR_CONFIG_CHANGED',
    targetKind: 'MONITOR_CONFIG',
    change: async (world) => {
      await world.ok('PUT', '/audit/v1/monitors/config', {
        dismissSuppressionHours: 12,
      });
      return { id: world.tenantId, updated: ['dismissSuppressionHours'], secrets: [], count: 1 };
    },
  },
};

/**
 * Issue 30 item 1 (D42), in both of D2's deployments (events through JetStream in `services`):
 * each administered resource kind changed through the public API, its events found in the audit
 * trail by type and target, with the administrator as actor, the changed fields, secrets as
 * "[redacted]" and never their values, in a chain that verifies, and in the export.
 */
describe.each<PlatformMode>(['embedded', 'services'])(
  'administrative changes in the audit trail (%s)',
  (mode) => {
    let platform: McpPlatform;
    let world: McpWorld;
    let adminId: string;

    beforeAll(async () => {
      platform = await startMcpPlatform(mode);
      world = await McpWorld.create(platform);
      const users = await world.ok<{ items: Json[] }>('GET', '/tenant-auth/v1/users?pageSize=100');
      adminId = String(users.items.find((u) => u.email === `admin@${world.tenant}.example`)?.id);
    });

    afterAll(async () => {
      await platform?.close();
    });

    async function eventsOf(kind: AdministeredKind, id: string, count: number): Promise<Json[]> {
      const query = new URLSearchParams({
        eventType: kind.eventType,
        sinkType: kind.targetKind,
        sinkId: id,
        pageSize: '100',
      });
      return eventually(
        async () => {
          const page = await world.ok<{ items: Json[] }>(
            'GET',
            `/audit/v1/events?${query.toString()}`,
          );
          expect(page.items).toHaveLength(count);
          return page.items;
        },
        300,
        50,
      );
    }

    it.each(Object.keys(KINDS))(
      'should record who changed which fields of the %s, secrets redacted, in a chain that verifies',
      async (label) => {
        const kind = KINDS[label];

        const changed = await kind.change(world);

        const events = await eventsOf(kind, changed.id, changed.count);
        for (const event of events) {
          expect(event.actor).toEqual(expect.objectContaining({ type: 'USER', id: adminId }));
          expect(event.sink).toEqual(
            expect.objectContaining({ type: kind.targetKind, id: changed.id }),
          );
          expect((event.details as Json).fields).toEqual(expect.any(Array));
        }
        // In the order the steps happened: the change step's event comes after the create's. The
        // chain's order is the ingest's, which across NATS need not be the producer's (a
        // redelivered or later-acknowledged event is chained later), so it only breaks ties.
        const ordered = [...events].sort(
          (a, b) =>
            Date.parse(String(a.occurredAt)) - Date.parse(String(b.occurredAt)) ||
            sequenceOf(a) - sequenceOf(b),
        );
        const update = ordered[changed.changeIndex ?? (changed.count === 3 ? 1 : 0)];
        expect((update.details as Json).fields).toEqual(expect.arrayContaining(changed.updated));
        const changes = (update.details as { changes: Record<string, Json> }).changes;
        if (changed.secretField) {
          expect(changes[changed.secretField]).toEqual({ before: REDACTED, after: REDACTED });
        }
        const text = JSON.stringify(events);
        for (const secret of changed.secrets) {
          expect(text).not.toContain(secret);
        }
        const verified = await world.ok<Json>('GET', '/audit/v1/integrity/verify');
        expect(verified).toEqual(expect.objectContaining({ verified: true }));
      },
    );

    it('should export the ADMIN_CHANGE events, their fields named in the summary', async () => {
      const channel = await world.ok<Json>('POST', '/relay/v1/channels', {
        name: name('export'),
        kind: 'WEB',
      });
      await world.ok('PATCH', `/relay/v1/channels/${String(channel.id)}`, { description: 'help' });
      await eventsOf(KINDS.channel, String(channel.id), 2);

      const answer = await world.api<string>(
        'GET',
        '/audit/v1/events/export?eventType=ADMIN_CHANGE',
      );

      expect(answer.status).toBe(200);
      const rows = answer.body
        .split('\r\n')
        .filter((line) => line.includes(`,CHANNEL,${String(channel.id)},`));
      expect(rows).toHaveLength(2);
      expect(rows.every((row) => row.includes(',ADMIN_CHANGE,'))).toBe(true);
      expect(rows.some((row) => row.endsWith('updated: description'))).toBe(true);
    });

    it("should list only one person's changes when the trail is filtered by actor", async () => {
      const role = await world.ok<Json>('POST', '/tenant-auth/v1/roles', {
        name: name('registrars'),
        permissions: [{ entity: 'CHANNELS', permission: 'WRITE' }],
      });
      const password = `Pw-${randomUUID()}`;
      const colleague = await world.ok<Json>('POST', '/tenant-auth/v1/users', {
        email: `${name('bo')}@acme.example`,
        displayName: 'Bo',
        password,
        roleIds: [role.id],
      });
      const token = await McpWorld.token(platform.baseUrl, {
        grant_type: 'password',
        tenant: world.tenant,
        username: String(colleague.email),
        password,
      });
      const theirs = await fetch(`${platform.baseUrl}/relay/v1/channels`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: name('theirs'), kind: 'WEB' }),
      });
      expect(theirs.status).toBe(201);
      await world.ok('POST', '/relay/v1/channels', { name: name('mine'), kind: 'WEB' });
      const query = (actorId: string): string =>
        `/audit/v1/events?eventType=ADMIN_CHANGE&sinkType=CHANNEL&actorId=${actorId}&pageSize=100`;

      const [mine, bos] = await eventually(async () => {
        const answers = await Promise.all([
          world.ok<{ items: Json[] }>('GET', query(adminId)),
          world.ok<{ items: Json[] }>('GET', query(String(colleague.id))),
        ]);
        const summaries = answers.map((page) => page.items.map((e) => String(e.summary)));
        expect(summaries[0].some((summary) => summary.startsWith('channel mine-'))).toBe(true);
        expect(summaries[1]).toHaveLength(1);
        return summaries;
      });

      expect(mine.some((summary) => summary.startsWith('channel theirs-'))).toBe(false);
      expect(bos).toEqual([expect.stringMatching(/^channel theirs-.* created$/)]);
    });
  },
);
