import { randomUUID } from 'node:crypto';

import { RELAY_DATABASE } from '../src/database/tokens';
import { Database } from '@agp/database';
import { EVENT_VERSION } from '@agp/contracts';
import { deleteNatsStreams } from '@agp/messaging/testing';
import {
  TEST_NATS_URL,
  ReceivedWebhook,
  createTestDatabase,
  eventually,
  WebhookReceiver,
  matchingSignatures,
  uniqueNatsPrefix,
} from '@agp/testing';

import { EventPublisher } from './support/event-tools';
import { RelayBed } from './support/relay-bed';
import { ADMIN_PERMS, TestCaller, startRelay } from './support/relay-test-app';

type Problem = { status: number; detail: string; errors?: Array<{ field: string }> };
interface Attempt {
  attempt: number;
  attemptedAt: string;
  statusCode?: number;
  error?: string;
  signatures: number;
}
interface Delivery {
  id: string;
  eventType: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attemptCount: number;
  body: { id: string; agentId: string; type: string };
  attempts: Attempt[];
}
interface Agent {
  id: string;
  webhookUrl?: string;
  webhookSecret?: string;
  webhookPreviousSecretExpiresAt?: string;
}

const RETRY_BASE_MS = 50;
const MAX_ATTEMPTS = 6;
/** Long enough for a round of six attempts at 50 ms × 3ⁿ (about 6 s). */
const PATIENCE = [600, 50] as const;

/** D19 through the relay's HTTP API and a real receiver, over real PostgreSQL and NATS. */
describe('webhooks', () => {
  const relay = RelayBed.use('webhooks', {
    // The receivers listen on 127.0.0.1, which D37 allows only with EGRESS_ALLOW_PRIVATE.
    egressAllowPrivate: true,
    webhooks: { retryBaseMs: RETRY_BASE_MS, maxAttempts: MAX_ATTEMPTS, pollMs: 50 },
  });
  const { tenantId } = relay;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  /** An agent whose webhook goes to the receiver's `/<name>`; its first secret. */
  async function agentWithWebhook(name: string, owner = relay.admin): Promise<[string, string]> {
    const agentId = await relay.agent(owner);
    const set = await owner.call<Agent>(relay.app, 'PATCH', `/relay/v1/agents/${agentId}`, {
      webhookUrl: receiver.url(name),
    });
    expect(set.status).toBe(200);
    return [agentId, set.body.webhookSecret!];
  }

  async function mcpServer(owner = relay.admin): Promise<string> {
    const created = await owner.call<{ id: string }>(relay.app, 'POST', '/relay/v1/mcp-servers', {
      name: `tools-${randomUUID().slice(0, 8)}`,
      url: 'https://tools.example.com/mcp',
      transport: 'STREAMABLE_HTTP',
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function subscribe(body: Record<string, unknown>, owner = relay.admin): Promise<string> {
    const created = await owner.call<{ id: string }>(
      relay.app,
      'POST',
      '/relay/v1/subscriptions',
      body,
    );
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function deliveries(agentId: string, owner = relay.admin): Promise<Delivery[]> {
    const listed = await owner.call<{ items: Delivery[] }>(
      relay.app,
      'GET',
      `/relay/v1/agents/${agentId}/webhook-deliveries?pageSize=100`,
    );
    expect(listed.status).toBe(200);
    return listed.body.items;
  }

  function ofType(name: string, type: string): ReceivedWebhook[] {
    return receiver.of(name).filter((r) => r.body.type === type);
  }

  it('should send a real subscription change to the agent signed as D19 says, once per event, and list it', async () => {
    const [agentId, secret] = await agentWithWebhook('created');
    const serverId = await mcpServer();

    const subscriptionId = await subscribe({
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: serverId,
      tools: ['echo'],
    });
    const [changed] = await eventually(() => {
      const got = ofType('created', 'SUBSCRIPTION_CHANGED');
      expect(got).toHaveLength(1);
      return got;
    });
    const [granted] = await eventually(() => {
      const got = ofType('created', 'MCP_GRANTS_CHANGED');
      expect(got).toHaveLength(1);
      return got;
    });
    // A later change, delivered after the first change's audit-only AGENT_LIFECYCLE was consumed.
    await relay.call('PATCH', `/relay/v1/subscriptions/${subscriptionId}`, {
      tools: null,
    });
    await eventually(() => expect(ofType('created', 'MCP_GRANTS_CHANGED')).toHaveLength(2));
    const listed = await eventually(async () => {
      const items = await deliveries(agentId);
      expect(items.filter((d) => d.status === 'DELIVERED')).toHaveLength(4);
      return items;
    });

    expect(changed.headers['content-type']).toBe('application/json');
    expect(changed.headers['x-svc-event-type']).toBe('SUBSCRIPTION_CHANGED');
    expect(changed.headers['x-svc-delivery-id']).toBe(changed.body.id);
    expect(changed.headers['x-svc-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(matchingSignatures(changed, secret)).toEqual([0]);
    expect(matchingSignatures(changed, `${secret}x`)).toEqual([]);
    expect(Object.keys(changed.body)).toEqual([
      'id',
      'type',
      'occurredAt',
      'tenantId',
      'agentId',
      'data',
    ]);
    expect(changed.body).toMatchObject({
      type: 'SUBSCRIPTION_CHANGED',
      tenantId,
      agentId,
      data: {
        change: 'CREATED',
        subscriptionId,
        kind: 'AGENT_TO_MCP_SERVER',
        sourceId: agentId,
        targetId: serverId,
        tools: ['echo'],
      },
    });
    expect(granted.body.data).toMatchObject({ agentId, mcpServerId: serverId, tools: ['echo'] });
    expect(matchingSignatures(granted, secret)).toEqual([0]);
    expect(receiver.of('created').map((r) => r.body.type)).not.toContain('AGENT_LIFECYCLE');
    expect(listed.map((d) => d.eventType).sort()).toEqual([
      'MCP_GRANTS_CHANGED',
      'MCP_GRANTS_CHANGED',
      'SUBSCRIPTION_CHANGED',
      'SUBSCRIPTION_CHANGED',
    ]);
    const first = listed.find((d) => d.id === changed.body.id)!;
    expect(first).toMatchObject({ status: 'DELIVERED', attemptCount: 1, body: changed.body });
    expect(first.attempts).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 200, signatures: 1 }),
    ]);
  });

  it('should answer the secret once, when a URL is first set, never on reads or later changes', async () => {
    const [agentId, secret] = await agentWithWebhook('once');

    const read = await relay.call<Agent>('GET', `/relay/v1/agents/${agentId}`);
    const moved = await relay.call<Agent>('PATCH', `/relay/v1/agents/${agentId}`, {
      webhookUrl: receiver.url('once-moved'),
    });
    const cleared = await relay.call<Agent>('PATCH', `/relay/v1/agents/${agentId}`, {
      webhookUrl: null,
    });
    const again = await relay.call<Agent>('PATCH', `/relay/v1/agents/${agentId}`, {
      webhookUrl: receiver.url('once'),
    });

    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(read.body.webhookUrl).toBe(receiver.url('once'));
    expect(JSON.stringify(read.body)).not.toContain(secret);
    expect(moved.status).toBe(200);
    expect(moved.body.webhookUrl).toBe(receiver.url('once-moved'));
    expect(moved.body.webhookSecret).toBeUndefined();
    expect(cleared.body.webhookUrl).toBeUndefined();
    expect(again.body.webhookSecret).toMatch(/^whsec_/);
    expect(again.body.webhookSecret).not.toBe(secret);
  });

  it('should retry a failing receiver with growing waits, keep the delivery as FAILED after six attempts, and redeliver it once the endpoint is back', async () => {
    receiver.answer('down', 500);
    const [agentId, secret] = await agentWithWebhook('down');
    const peer = await relay.agent();
    await subscribe({ kind: 'AGENT_TO_AGENT', sourceId: agentId, targetId: peer });

    const failed = await eventually(
      async () => {
        const [delivery] = await deliveries(agentId);
        expect(delivery?.status).toBe('FAILED');
        return delivery;
      },
      ...PATIENCE,
    );
    const tries = [...receiver.of('down')];
    receiver.answer('down', 204);
    const redelivered = await relay.call<Delivery>(
      'POST',
      `/relay/v1/agents/${agentId}/webhook-deliveries/${failed.id}/redeliver`,
    );
    const delivered = await eventually(async () => {
      const [delivery] = await deliveries(agentId);
      expect(delivery?.status).toBe('DELIVERED');
      return delivery;
    });

    expect(failed.attemptCount).toBe(MAX_ATTEMPTS);
    expect(failed.attempts.map((a) => [a.attempt, a.statusCode])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [n, 500]),
    );
    expect(failed.attempts[0].error).toBe('the receiver answered 500');
    // Exponential backoff: the n-th wait is at least 50 ms × 3ⁿ⁻¹ (never earlier than scheduled).
    const at = failed.attempts.map((a) => Date.parse(a.attemptedAt));
    for (let n = 1; n < at.length; n++) {
      expect(at[n] - at[n - 1]).toBeGreaterThanOrEqual(RETRY_BASE_MS * 3 ** (n - 1) - 5);
    }
    expect(tries).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(tries.map((t) => t.body.id))).toEqual(new Set([failed.id]));
    expect(tries.every((t) => matchingSignatures(t, secret).length === 1)).toBe(true);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toMatchObject({ id: failed.id, status: 'PENDING' });
    expect(delivered.attemptCount).toBe(MAX_ATTEMPTS + 1);
    expect(delivered.attempts.at(-1)).toMatchObject({ attempt: 7, statusCode: 204 });
    const last = receiver.of('down').at(-1)!;
    expect(receiver.of('down')).toHaveLength(MAX_ATTEMPTS + 1);
    expect(last.raw.equals(tries[0].raw)).toBe(true);
    expect(matchingSignatures(last, secret)).toEqual([0]);
  });

  it('should sign with both secrets during a rotation, the new one first', async () => {
    const [agentId, oldSecret] = await agentWithWebhook('rotated');

    const rotated = await relay.call<{
      webhookSecret: string;
      previousSecretExpiresAt: string;
    }>('POST', `/relay/v1/agents/${agentId}/webhook-secret/rotate`);
    const read = await relay.call<Agent>('GET', `/relay/v1/agents/${agentId}`);
    await subscribe({
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: await mcpServer(),
    });
    const [got] = await eventually(() => {
      const list = ofType('rotated', 'SUBSCRIPTION_CHANGED');
      expect(list).toHaveLength(1);
      return list;
    });
    const recorded = await eventually(() => {
      const events = relay.tap
        .ofType('CREDENTIAL_ROTATION')
        .filter((e) => e.data.subjectId === agentId);
      expect(events).toHaveLength(1);
      return events[0];
    });

    const newSecret = rotated.body.webhookSecret;
    expect(rotated.status).toBe(200);
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    const overlap = Date.parse(rotated.body.previousSecretExpiresAt) - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3_600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3_600_000);
    expect(read.body.webhookPreviousSecretExpiresAt).toBe(rotated.body.previousSecretExpiresAt);
    expect(String(got.headers['x-svc-signature'])).toMatch(/^v1=[0-9a-f]{64} v1=[0-9a-f]{64}$/);
    expect(matchingSignatures(got, newSecret)).toEqual([0]);
    expect(matchingSignatures(got, oldSecret)).toEqual([1]);
    expect(recorded.data).toMatchObject({ credential: 'AGENT_WEBHOOK_SECRET' });
    expect(JSON.stringify(recorded)).not.toContain(newSecret);
  });

  it('should refuse to rotate without a webhook (409) or for an agent of another tenant (404)', async () => {
    const bare = await relay.agent();
    const [hooked] = await agentWithWebhook('foreign');

    const none = await relay.call<Problem>(
      'POST',
      `/relay/v1/agents/${bare}/webhook-secret/rotate`,
    );
    const foreign = await relay.stranger.call<Problem>(
      relay.app,
      'POST',
      `/relay/v1/agents/${hooked}/webhook-secret/rotate`,
    );

    expect(none.status).toBe(409);
    expect(none.body.detail).toContain('no webhook');
    expect(foreign.status).toBe(404);
  });

  it('should tell every agent of a tenant about the tenant, and an agent and its callers about the agent', async () => {
    const owner = await TestCaller.create(relay.issuer, randomUUID(), ADMIN_PERMS);
    const [first] = await agentWithWebhook('tenant-a', owner);
    const [second] = await agentWithWebhook('tenant-b', owner);
    const [elsewhere] = await agentWithWebhook('tenant-elsewhere');
    await subscribe({ kind: 'AGENT_TO_AGENT', sourceId: second, targetId: first }, owner);
    await eventually(() => expect(ofType('tenant-b', 'SUBSCRIPTION_CHANGED')).toHaveLength(1));

    await relay.publisher.publish('TENANT_LIFECYCLE', owner.tenantId, {
      tenantId: owner.tenantId,
      slug: 'acme',
      change: 'UPDATED',
    });
    await relay.publisher.publish('AGENT_LIFECYCLE', owner.tenantId, {
      agentId: first,
      name: 'first',
      change: 'SUSPENDED',
      status: 'SUSPENDED',
      permissions: [],
    });
    await eventually(() => {
      expect(ofType('tenant-a', 'TENANT_LIFECYCLE')).toHaveLength(1);
      expect(ofType('tenant-b', 'TENANT_LIFECYCLE')).toHaveLength(1);
      expect(ofType('tenant-a', 'AGENT_LIFECYCLE')).toHaveLength(1);
      expect(ofType('tenant-b', 'AGENT_LIFECYCLE')).toHaveLength(1);
    });
    await subscribe({
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: elsewhere,
      targetId: await mcpServer(),
    });
    // Received after the tenant and agent events were consumed: the consumer keeps stream order.
    await eventually(() => expect(receiver.of('tenant-elsewhere')).toHaveLength(2));

    expect(ofType('tenant-a', 'TENANT_LIFECYCLE')[0].body.data).toEqual({
      tenantId: owner.tenantId,
      slug: 'acme',
      change: 'UPDATED',
    });
    expect(ofType('tenant-b', 'AGENT_LIFECYCLE')[0].body).toMatchObject({
      agentId: second,
      data: { agentId: first, change: 'SUSPENDED', status: 'SUSPENDED' },
    });
    expect(
      receiver
        .of('tenant-elsewhere')
        .map((r) => r.body.type)
        .sort(),
    ).toEqual(['MCP_GRANTS_CHANGED', 'SUBSCRIPTION_CHANGED']);
    expect(second).not.toBe(elsewhere);
  });

  it('should make one delivery of an event that reaches the relay twice (inbox)', async () => {
    const owner = await TestCaller.create(relay.issuer, randomUUID(), ADMIN_PERMS);
    const [agentId] = await agentWithWebhook('redelivered-event', owner);
    const event = await relay.publisher.publish('TENANT_LIFECYCLE', owner.tenantId, {
      tenantId: owner.tenantId,
      slug: 'twice',
      change: 'UPDATED',
    });
    await eventually(() => expect(ofType('redelivered-event', 'TENANT_LIFECYCLE')).toHaveLength(1));

    await relay.publisher.redeliver(relay.prefix, event);
    // A later event is consumed after the replayed one: the consumer keeps stream order.
    await relay.publisher.publish('TENANT_LIFECYCLE', owner.tenantId, {
      tenantId: owner.tenantId,
      slug: 'after',
      change: 'UPDATED',
    });
    await eventually(() => expect(ofType('redelivered-event', 'TENANT_LIFECYCLE')).toHaveLength(2));
    const listed = await deliveries(agentId, owner);

    expect(ofType('redelivered-event', 'TENANT_LIFECYCLE').map((r) => r.body.data.slug)).toEqual([
      'twice',
      'after',
    ]);
    expect(listed).toHaveLength(2);
  });

  it('should not deliver an event that occurred before the webhook was set (W23)', async () => {
    const owner = await TestCaller.create(relay.issuer, randomUUID(), ADMIN_PERMS);
    const before = new Date(Date.now() - 60_000).toISOString();
    await agentWithWebhook('set-later', owner);
    // An event from before the webhook existed, reaching the relay only now (a slow outbox).
    await relay.publisher.redeliver(relay.prefix, {
      id: randomUUID(),
      type: 'TENANT_LIFECYCLE',
      version: EVENT_VERSION,
      occurredAt: before,
      tenantId: owner.tenantId,
      correlationId: randomUUID(),
      data: { tenantId: owner.tenantId, slug: 'earlier', change: 'UPDATED' },
    });
    await relay.publisher.publish('TENANT_LIFECYCLE', owner.tenantId, {
      tenantId: owner.tenantId,
      slug: 'later',
      change: 'UPDATED',
    });

    // Consumed in stream order: once the later event is delivered, the earlier one was judged.
    await eventually(() => expect(ofType('set-later', 'TENANT_LIFECYCLE')).toHaveLength(1));
    expect(ofType('set-later', 'TENANT_LIFECYCLE')[0].body.data.slug).toBe('later');
  });

  it('should refuse a webhook URL that D37 forbids with a 400 naming webhookUrl, changing nothing', async () => {
    const agentId = await relay.agent();

    const refused = await Promise.all(
      [
        'http://169.254.169.254/latest/meta-data',
        'http://[fe80::1]/hook',
        'http://metadata.google.internal/hook',
        'http://user:secret@hooks.example.com/hook',
        'ftp://hooks.example.com/hook',
        'not a url',
      ].map((webhookUrl) =>
        relay.call<Problem>('PATCH', `/relay/v1/agents/${agentId}`, {
          webhookUrl,
        }),
      ),
    );
    const read = await relay.call<Agent>('GET', `/relay/v1/agents/${agentId}`);

    for (const answer of refused) {
      expect(answer.status).toBe(400);
      expect(answer.body.errors?.map((e) => e.field)).toEqual(['webhookUrl']);
    }
    expect(refused[0].body.errors).toEqual([
      expect.objectContaining({ message: expect.stringContaining('metadata') }),
    ]);
    expect(read.body.webhookUrl).toBeUndefined();
  });

  it('should refuse at send time a webhook URL the egress policy forbids, sending nothing', async () => {
    const [agentId] = await agentWithWebhook('egress');
    // As if stored before the policy refused it: D37 is checked again on every attempt.
    const database = relay.app.get<Database>(RELAY_DATABASE);
    await database.asSystem((tx) =>
      tx.query(
        `UPDATE relay.agents SET webhook_url = 'http://169.254.169.254/hook' WHERE id = $1`,
        [agentId],
      ),
    );

    await subscribe({
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: await mcpServer(),
    });
    const [delivery] = await eventually(async () => {
      const items = await deliveries(agentId);
      expect(items[0]?.attempts.length).toBeGreaterThan(0);
      return items;
    });

    expect(delivery.attempts[0]).toMatchObject({
      url: 'http://169.254.169.254/hook',
      error: expect.stringContaining(
        'egress refused (D37): 169.254.169.254 is a cloud metadata address',
      ),
    });
    expect(delivery.attempts[0].statusCode).toBeUndefined();
    expect(receiver.of('egress')).toEqual([]);
  });

  it('should refuse private addresses when the operator does not allow them', async () => {
    const strictDb = await createTestDatabase('relay_webhooks_strict');
    const strictPrefix = uniqueNatsPrefix('relayhookstrict');
    const strict = await startRelay({
      databaseUrl: strictDb.url,
      prefix: strictPrefix,
      issuer: relay.issuer,
    });
    try {
      const strictPublisher = await EventPublisher.connect(strictPrefix);
      const agentId = randomUUID();
      await strictPublisher.publish('AGENT_LIFECYCLE', tenantId, {
        agentId,
        name: 'strict',
        change: 'CREATED',
        status: 'ACTIVE',
        permissions: [],
      });
      await strictPublisher.close();
      await eventually(async () =>
        expect((await relay.admin.call(strict, 'GET', `/relay/v1/agents/${agentId}`)).status).toBe(
          200,
        ),
      );

      const loopback = await relay.admin.call<Problem>(
        strict,
        'PATCH',
        `/relay/v1/agents/${agentId}`,
        {
          webhookUrl: receiver.url('strict'),
        },
      );
      const local = await relay.admin.call<Problem>(
        strict,
        'PATCH',
        `/relay/v1/agents/${agentId}`,
        {
          webhookUrl: 'http://localhost:9/hook',
        },
      );
      const privateRange = await relay.admin.call<Problem>(
        strict,
        'PATCH',
        `/relay/v1/agents/${agentId}`,
        {
          webhookUrl: 'https://10.1.2.3/hook',
        },
      );
      const publicHost = await relay.admin.call<Agent>(
        strict,
        'PATCH',
        `/relay/v1/agents/${agentId}`,
        {
          webhookUrl: 'https://hooks.example.com/agp',
        },
      );

      for (const answer of [loopback, local, privateRange]) {
        expect(answer.status).toBe(400);
        expect(answer.body.errors).toEqual([
          expect.objectContaining({
            field: 'webhookUrl',
            message: expect.stringContaining('EGRESS_ALLOW_PRIVATE'),
          }),
        ]);
      }
      expect(publicHost.status).toBe(200);
    } finally {
      await strict.close();
      await strictDb.drop();
      await deleteNatsStreams(strictPrefix, TEST_NATS_URL);
    }
  });

  it('should keep pending deliveries across a restart and send them from the new process', async () => {
    receiver.answer('restart', 503);
    const [agentId, secret] = await agentWithWebhook('restart');
    await subscribe({
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: await mcpServer(),
    });
    await eventually(() => expect(receiver.of('restart').length).toBeGreaterThan(0));

    await relay.app.close();
    receiver.answer('restart', 200);
    relay.app = await relay.replica();
    const delivered = await eventually(
      async () => {
        const items = await deliveries(agentId);
        expect(items.map((d) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);
        return items;
      },
      ...PATIENCE,
    );

    const ok = receiver.of('restart').filter((r) => matchingSignatures(r, secret).length === 1);
    expect(ok.length).toBe(receiver.of('restart').length);
    expect(delivered.every((d) => d.attempts.at(-1)?.statusCode === 200)).toBe(true);
  });

  it('should send each delivery once with two replicas on one database', async () => {
    const second = await relay.replica();
    try {
      receiver.slowDown(100);
      const [agentId] = await agentWithWebhook('replicas');
      const servers = await Promise.all(Array.from({ length: 12 }, () => mcpServer()));

      for (const serverId of servers) {
        await subscribe({ kind: 'AGENT_TO_MCP_SERVER', sourceId: agentId, targetId: serverId });
      }
      const delivered = await eventually(
        async () => {
          const items = await deliveries(agentId);
          expect(items.filter((d) => d.status === 'DELIVERED')).toHaveLength(24);
          return items;
        },
        ...PATIENCE,
      );

      const ids = receiver.of('replicas').map((r) => r.body.id);
      expect(ids).toHaveLength(24);
      expect(new Set(ids).size).toBe(24);
      expect(new Set(ids)).toEqual(new Set(delivered.map((d) => d.id)));
      expect(delivered.every((d) => d.attemptCount === 1 && d.attempts.length === 1)).toBe(true);
    } finally {
      receiver.slowDown(0);
      await second.close();
    }
  });

  describe('access and validation', () => {
    it('should let a user with REGISTRY:READ list, and the agent itself, but not another agent or a user without it', async () => {
      const [agentId] = await agentWithWebhook('access');
      const reader = await TestCaller.create(relay.issuer, tenantId, ['REGISTRY:READ']);
      const nobody = await TestCaller.create(relay.issuer, tenantId, ['AUDIT:READ']);
      const self = await TestCaller.create(relay.issuer, tenantId, [], 'AGENT', agentId);
      const other = await TestCaller.create(relay.issuer, tenantId, [], 'AGENT', randomUUID());
      const path = `/relay/v1/agents/${agentId}/webhook-deliveries`;

      const [byReader, byNobody, bySelf, byOther] = await Promise.all(
        [reader, nobody, self, other].map((caller) => caller.call<Problem>(relay.app, 'GET', path)),
      );
      const redeliverByReader = await reader.call<Problem>(
        relay.app,
        'POST',
        `${path}/${randomUUID()}/redeliver`,
      );
      const rotateBySelf = await self.call<Problem>(
        relay.app,
        'POST',
        `/relay/v1/agents/${agentId}/webhook-secret/rotate`,
      );

      expect(byReader.status).toBe(200);
      expect(bySelf.status).toBe(200);
      expect(byNobody.status).toBe(403);
      expect(byNobody.body.detail).toContain('REGISTRY:READ');
      expect(byOther.status).toBe(403);
      expect(redeliverByReader.status).toBe(403);
      expect(redeliverByReader.body.detail).toContain('REGISTRY:WRITE');
      expect(rotateBySelf.status).toBe(403);
    });

    it('should answer 404 for another tenant, an unknown agent or delivery, and 400 listing every bad parameter', async () => {
      const [agentId] = await agentWithWebhook('validation');
      const base = `/relay/v1/agents/${agentId}/webhook-deliveries`;

      const foreign = await relay.stranger.call<Problem>(relay.app, 'GET', base);
      const unknownAgent = await relay.call<Problem>(
        'GET',
        `/relay/v1/agents/${randomUUID()}/webhook-deliveries`,
      );
      const unknownDelivery = await relay.call<Problem>('GET', `${base}/${randomUUID()}`);
      const unknownRedelivery = await relay.call<Problem>(
        'POST',
        `${base}/${randomUUID()}/redeliver`,
      );
      const badQuery = await relay.call<Problem>(
        'GET',
        `${base}?status=LOST&eventType=POLICY_LIFECYCLE&pageSize=500`,
      );
      const badId = await relay.call<Problem>('GET', `${base}/not-a-uuid`);
      const badBody = await relay.call<Problem>('PATCH', `/relay/v1/agents/${agentId}`, {
        webhookUrl: 42,
        webhookSecret: 'mine',
      });

      expect(foreign.status).toBe(404);
      expect(unknownAgent.status).toBe(404);
      expect(unknownDelivery.status).toBe(404);
      expect(unknownRedelivery.status).toBe(404);
      expect(badQuery.status).toBe(400);
      expect(badQuery.body.errors?.map((e) => e.field).sort()).toEqual([
        'eventType',
        'pageSize',
        'status',
      ]);
      expect(badId.status).toBe(400);
      expect(badId.body.errors?.map((e) => e.field)).toEqual(['deliveryId']);
      expect(badBody.status).toBe(400);
      expect([...new Set(badBody.body.errors?.map((e) => e.field))].sort()).toEqual([
        'webhookSecret',
        'webhookUrl',
      ]);
    });

    it('should refuse to redeliver when the agent no longer has a webhook (409)', async () => {
      const [agentId] = await agentWithWebhook('removed');
      await subscribe({
        kind: 'AGENT_TO_MCP_SERVER',
        sourceId: agentId,
        targetId: await mcpServer(),
      });
      const [delivery] = await eventually(async () => {
        const items = await deliveries(agentId);
        expect(items.filter((d) => d.status === 'DELIVERED')).toHaveLength(2);
        return items;
      });
      await relay.call('PATCH', `/relay/v1/agents/${agentId}`, {
        webhookUrl: null,
      });

      const refused = await relay.call<Problem>(
        'POST',
        `/relay/v1/agents/${agentId}/webhook-deliveries/${delivery.id}/redeliver`,
      );

      expect(refused.status).toBe(409);
      expect(refused.body.detail).toContain('no webhook');
    });
  });
});
