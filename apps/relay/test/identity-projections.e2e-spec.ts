import { randomUUID } from 'node:crypto';

import { EventEnvelope } from '@agp/contracts';
import { eventually } from '@agp/testing';
import { Client } from 'pg';

import { RelayBed } from './support/relay-bed';

type Json = Record<string, unknown>;

/**
 * Issue 30, read your own writes across services: an id tenant-auth has committed is usable here at
 * once, before its event arrives; the seeded projection and the late event agree; an older event
 * never undoes a newer state; an absent, deleted or foreign id keeps its 404 or 400; an owner that
 * does not answer is a 503, not a "not found".
 */
describe('identity projections', () => {
  const relay = RelayBed.use('projections');
  const { tenantId } = relay;

  /** One query on a connection of its own (the bed drops the database after the tests). */
  async function query(text: string, values: unknown[]): Promise<unknown[]> {
    const sql = new Client({ connectionString: relay.db.url });
    await sql.connect();
    try {
      return (await sql.query<Record<string, unknown>>(text, values)).rows;
    } finally {
      await sql.end();
    }
  }

  /** Waits until the relay's consumer `name` has processed the event (its inbox row). */
  async function processed(consumer: string, event: EventEnvelope): Promise<void> {
    await eventually(async () => {
      const rows = await query('SELECT 1 FROM relay.inbox WHERE consumer = $1 AND event_id = $2', [
        consumer,
        event.id,
      ]);
      expect(rows).toHaveLength(1);
    });
  }

  function agentData(agentId: string, name: string, revision: number, change = 'CREATED') {
    return {
      agentId,
      name,
      change: change as 'CREATED',
      status: change === 'DELETED' ? 'DELETED' : 'ACTIVE',
      permissions: [],
      revision,
    };
  }

  it('should use an agent tenant-auth committed before its event arrives, and agree with the event', async () => {
    const agentId = randomUUID();
    const created = relay.publisher.commit(
      'AGENT_LIFECYCLE',
      tenantId,
      agentData(agentId, 'fresh', 1),
    );
    const mcp = await relay.call('POST', '/relay/v1/mcp-servers', {
      name: `mcp-${agentId}`,
      url: 'https://mcp.example.com/mcp',
      transport: 'STREAMABLE_HTTP',
    });

    const patched = await relay.call('PATCH', `/relay/v1/agents/${agentId}`, {
      description: 'configured at once',
    });
    const subscribed = await relay.call('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: mcp.body.id,
    });

    expect(patched.status).toBe(200);
    expect(patched.body).toEqual(expect.objectContaining({ name: 'fresh', status: 'ACTIVE' }));
    expect(subscribed.status).toBe(201);
    await relay.publisher.deliver(created);
    await processed('relay-agents', created);
    expect((await relay.call('GET', `/relay/v1/agents/${agentId}`)).body).toEqual(
      expect.objectContaining({ name: 'fresh', description: 'configured at once' }),
    );
  });

  it('should keep the newer state when an older event arrives after it', async () => {
    const agentId = randomUUID();
    const renamed = await relay.publisher.publish(
      'AGENT_LIFECYCLE',
      tenantId,
      agentData(agentId, 'renamed', 2, 'UPDATED'),
    );
    await processed('relay-agents', renamed);

    const late = await relay.publisher.publish(
      'AGENT_LIFECYCLE',
      tenantId,
      agentData(agentId, 'original', 1),
    );
    await processed('relay-agents', late);

    expect((await relay.call('GET', `/relay/v1/agents/${agentId}`)).body.name).toBe('renamed');
  });

  it('should not bring back a deleted user when an older event of it arrives late', async () => {
    const agentId = randomUUID();
    const userId = randomUUID();
    await relay.publisher.publish('AGENT_LIFECYCLE', tenantId, agentData(agentId, 'owned', 1));
    const user = { userId, email: 'late@acme.example', status: 'ACTIVE' };
    const deleted = await relay.publisher.publish('USER_LIFECYCLE', tenantId, {
      ...user,
      change: 'DELETED',
      status: 'DELETED',
      revision: 3,
    });
    await processed('relay-users', deleted);

    const late = await relay.publisher.publish('USER_LIFECYCLE', tenantId, {
      ...user,
      change: 'UPDATED',
      revision: 2,
    });
    await processed('relay-users', late);

    const patched = await relay.call('PATCH', `/relay/v1/agents/${agentId}`, {
      ownerUserId: userId,
    });
    expect(patched.status).toBe(400);
  });

  it('should answer 404 and 400 for ids tenant-auth does not have in the caller tenant', async () => {
    const foreign = randomUUID();
    relay.publisher.commit('AGENT_LIFECYCLE', randomUUID(), agentData(foreign, 'theirs', 1));
    const gone = randomUUID();
    relay.publisher.commit('AGENT_LIFECYCLE', tenantId, agentData(gone, 'gone', 1));
    relay.publisher.commit('AGENT_LIFECYCLE', tenantId, agentData(gone, 'gone', 2, 'DELETED'));

    for (const id of [randomUUID(), foreign, gone]) {
      expect(
        (await relay.call('PATCH', `/relay/v1/agents/${id}`, { description: 'x' })).status,
      ).toBe(404);
      const subscribed = await relay.call('POST', '/relay/v1/subscriptions', {
        kind: 'AGENT_TO_AGENT',
        sourceId: id,
        targetId: id,
      });
      expect(subscribed.status).toBe(400);
      expect(subscribed.body.detail).toBe('invalid request: sourceId, targetId');
    }
    expect(
      await query('SELECT id FROM relay.agents WHERE id = ANY($1)', [[foreign, gone]]),
    ).toEqual([]);
  });

  it('should seed the owner of a new evaluation pack and the tenant slug from tenant-auth', async () => {
    const userId = randomUUID();
    relay.publisher.commit('USER_LIFECYCLE', tenantId, {
      userId,
      email: 'new-owner@acme.example',
      displayName: 'New Owner',
      change: 'CREATED',
      status: 'ACTIVE',
      revision: 1,
    });
    relay.publisher.commit('TENANT_LIFECYCLE', tenantId, {
      tenantId,
      slug: 'acme-projections',
      change: 'CREATED',
      revision: 1,
    });

    const pack = await relay.call<Json>('POST', '/relay/v1/evaluation-packs', {
      name: `pack-${userId}`,
      ownerUserId: userId,
    });
    const decision = await relay.call('POST', '/relay/v1/policy-decisions', {
      protocol: 'MCP',
      direction: 'REQUEST',
      source: { type: 'USER', id: userId },
      sink: { type: 'MCP_SERVER', id: randomUUID() },
      message: { json: { hello: 'world' } },
    });

    expect(pack.status).toBe(201);
    expect(pack.body.owner).toEqual({ id: userId, name: 'New Owner' });
    expect(decision.status).toBe(200);
    expect(await query('SELECT slug FROM relay.tenants WHERE tenant_id = $1', [tenantId])).toEqual([
      { slug: 'acme-projections' },
    ]);
  });

  it('should answer 503 naming the owner, not 404, when tenant-auth does not answer', async () => {
    relay.publisher.stopAnswering();
    try {
      const response = await relay.call('GET', `/relay/v1/agents/${randomUUID()}`);

      expect(response.status).toBe(503);
      expect(response.body).toEqual(
        expect.objectContaining({
          type: 'urn:agp:problem:owner-unavailable',
          detail: expect.stringContaining('tenant-auth did not answer AGENT_IDENTITY'),
        }),
      );
    } finally {
      await relay.publisher.answerAsTenantAuth();
    }
  });
});
