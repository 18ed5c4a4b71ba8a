import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { RelayBed } from './support/relay-bed';
import { TestCaller } from './support/relay-test-app';

type Json = Record<string, unknown>;
type Problem = { detail: string; errors?: Array<{ field: string; message: string }> };
interface Subscription {
  id: string;
  kind: string;
  sourceId: string;
  targetId: string;
  tools: string[] | null;
}

/** D32 and D21: subscriptions, tool grants, the client library's reads, their events. */
describe('subscriptions', () => {
  const relay = RelayBed.use('subscriptions');
  const { tenantId } = relay;

  async function mcpServer(owner = relay.admin): Promise<string> {
    const created = await owner.call<{ id: string }>(relay.app, 'POST', '/relay/v1/mcp-servers', {
      name: `tools-${randomUUID().slice(0, 8)}`,
      url: 'https://tools.example.com/mcp',
      transport: 'STREAMABLE_HTTP',
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function subscribe(body: Json, owner = relay.admin): Promise<Subscription> {
    const created = await owner.call<Subscription>(
      relay.app,
      'POST',
      '/relay/v1/subscriptions',
      body,
    );
    expect(created.status).toBe(201);
    return created.body;
  }

  it('should create a grant, read it, list it by filters, change it and delete it, publishing each change', async () => {
    const agentId = await relay.agent();
    const serverId = await mcpServer();

    const created = await relay.call<Subscription>('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: serverId,
      tools: ['echo'],
    });
    const read = await relay.call<Subscription>(
      'GET',
      `/relay/v1/subscriptions/${created.body.id}`,
    );
    const listed = await relay.call<{ items: Subscription[]; total: number }>(
      'GET',
      `/relay/v1/subscriptions?kind=AGENT_TO_MCP_SERVER&sourceId=${agentId}&targetId=${serverId}`,
    );
    const patched = await relay.call<Subscription>(
      'PATCH',
      `/relay/v1/subscriptions/${created.body.id}`,
      {
        tools: null,
      },
    );
    const removed = await relay.call('DELETE', `/relay/v1/subscriptions/${created.body.id}`);
    const gone = await relay.call('GET', `/relay/v1/subscriptions/${created.body.id}`);

    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`/relay/v1/subscriptions/${created.body.id}`);
    expect(read.body).toMatchObject({
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      tools: ['echo'],
    });
    expect(listed.body).toMatchObject({ total: 1, items: [{ id: created.body.id }] });
    expect(patched.body.tools).toBeNull();
    expect(removed.status).toBe(204);
    expect(gone.status).toBe(404);
    await eventually(() => {
      const changes = relay.tap
        .ofType('SUBSCRIPTION_CHANGED')
        .filter((e) => e.data.subscriptionId === created.body.id);
      expect(changes.map((e) => e.data.change)).toEqual(['CREATED', 'UPDATED', 'DELETED']);
      const grants = relay.tap
        .ofType('MCP_GRANTS_CHANGED')
        .filter((e) => e.data.subscriptionId === created.body.id);
      expect(grants.map((e) => e.data.tools)).toEqual([['echo'], null, []]);
      const lifecycle = relay.tap
        .ofType('AGENT_LIFECYCLE')
        .filter(
          (e) =>
            (e.data.details as Json | undefined)?.subscription !== undefined &&
            e.data.agentId === agentId,
        );
      expect(lifecycle).toHaveLength(3);
    });
  });

  it('should refuse bad bodies with every field listed and unknown ends of the wrong kind', async () => {
    const agentId = await relay.agent();
    const serverId = await mcpServer();

    const bad = await relay.call<Problem>('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_PRINTER',
      sourceId: 'nope',
      targetId: serverId,
      tools: 'echo',
      extra: true,
    });
    const wrongEnd = await relay.call<Problem>('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_LLM_GATEWAY',
      sourceId: agentId,
      targetId: serverId,
    });
    const grantOnWrongKind = await relay.call<Problem>('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_AGENT',
      sourceId: agentId,
      targetId: agentId,
      tools: ['echo'],
    });
    const duplicateTools = await relay.call<Problem>('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: serverId,
      tools: ['echo', 'echo'],
    });

    expect(bad.status).toBe(400);
    expect(bad.body.errors?.map((e) => e.field).sort()).toEqual(
      expect.arrayContaining(['extra', 'kind', 'sourceId', 'tools']),
    );
    expect(wrongEnd.status).toBe(400);
    expect(wrongEnd.body.errors).toEqual([
      { field: 'targetId', message: `no LLM_GATEWAY ${serverId} in this tenant` },
    ]);
    expect(grantOnWrongKind.status).toBe(400);
    expect(duplicateTools.status).toBe(400);
  });

  it('should answer 409 for a second subscription between the same ends, 404 across tenants and 400 for a non-UUID id', async () => {
    const agentId = await relay.agent();
    const serverId = await mcpServer();
    const first = await subscribe({
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: serverId,
    });

    const again = await relay.call('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: serverId,
    });
    const foreign = await relay.stranger.call(
      relay.app,
      'GET',
      `/relay/v1/subscriptions/${first.id}`,
    );
    const foreignPatch = await relay.stranger.call(
      relay.app,
      'PATCH',
      `/relay/v1/subscriptions/${first.id}`,
      {
        tools: [],
      },
    );
    const foreignDelete = await relay.stranger.call(
      relay.app,
      'DELETE',
      `/relay/v1/subscriptions/${first.id}`,
    );
    const notUuid = await relay.call('GET', '/relay/v1/subscriptions/not-a-uuid');
    const foreignEnds = await relay.stranger.call<Problem>(
      relay.app,
      'POST',
      '/relay/v1/subscriptions',
      {
        kind: 'AGENT_TO_MCP_SERVER',
        sourceId: agentId,
        targetId: serverId,
      },
    );

    expect(again.status).toBe(409);
    expect([foreign.status, foreignPatch.status, foreignDelete.status]).toEqual([404, 404, 404]);
    expect(notUuid.status).toBe(400);
    expect(foreignEnds.status).toBe(400);
    expect(foreignEnds.body.errors?.map((e) => e.field)).toEqual(['sourceId', 'targetId']);
  });

  it('should need REGISTRY permissions and a token', async () => {
    const reader = await TestCaller.create(relay.issuer, tenantId, ['REGISTRY:READ']);

    const write = await reader.call(relay.app, 'POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_AGENT',
      sourceId: randomUUID(),
      targetId: randomUUID(),
    });
    const read = await reader.call(relay.app, 'GET', '/relay/v1/subscriptions');
    const anonymous = await relay.app.inject({ method: 'GET', url: '/relay/v1/subscriptions' });

    expect(write.status).toBe(403);
    expect(read.status).toBe(200);
    expect(anonymous.statusCode).toBe(401);
  });

  it('should give an agent its own subscriptions, LLM gateway subscriptions and MCP servers with grants, and 403 for another agent (D21)', async () => {
    const agentId = await relay.agent();
    const otherId = await relay.agent();
    const serverId = await mcpServer();
    await subscribe({
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: serverId,
      tools: ['a'],
    });
    await subscribe({ kind: 'AGENT_TO_AGENT', sourceId: agentId, targetId: otherId });
    const self = await TestCaller.create(relay.issuer, tenantId, [], 'AGENT', agentId);

    const all = await self.call<{ items: Subscription[]; pageSize: number; total: number }>(
      relay.app,
      'GET',
      `/relay/v1/agents/${agentId}/subscriptions?pageSize=100`,
    );
    const servers = await self.call<{ items: Json[] }>(
      relay.app,
      'GET',
      `/relay/v1/agents/${agentId}/mcp-servers`,
    );
    const gateways = await self.call<{ items: Json[] }>(
      relay.app,
      'GET',
      `/relay/v1/agents/${agentId}/llm-gateway-subscriptions`,
    );
    const other = await self.call(relay.app, 'GET', `/relay/v1/agents/${otherId}/subscriptions`);
    const tooBig = await self.call(
      relay.app,
      'GET',
      `/relay/v1/agents/${agentId}/subscriptions?pageSize=101`,
    );
    const byAdmin = await relay.call<{ total: number }>(
      'GET',
      `/relay/v1/agents/${agentId}/subscriptions`,
    );

    expect(all.body).toMatchObject({ total: 2, pageSize: 100 });
    expect(servers.body.items).toEqual([
      expect.objectContaining({ id: serverId, tools: ['a'], relayPath: `/relay/mcp/${serverId}` }),
    ]);
    expect(gateways.body.items).toEqual([]);
    expect(other.status).toBe(403);
    expect(tooBig.status).toBe(400);
    expect(byAdmin.body.total).toBe(2);
  });

  it.each(['subscriptions', 'llm-gateway-subscriptions', 'mcp-servers'])(
    "should answer 404 for another tenant's agent and an unknown one on %s, not an empty page (found by the fuzz suite)",
    async (read) => {
      const agentId = await relay.agent();

      const foreign = await relay.stranger.call(
        relay.app,
        'GET',
        `/relay/v1/agents/${agentId}/${read}`,
      );
      const unknown = await relay.call('GET', `/relay/v1/agents/${randomUUID()}/${read}`);
      const own = await relay.call('GET', `/relay/v1/agents/${agentId}/${read}`);

      expect([foreign.status, unknown.status, own.status]).toEqual([404, 404, 200]);
    },
  );

  it('should remove the subscriptions of an MCP server that is deleted', async () => {
    const agentId = await relay.agent();
    const serverId = await mcpServer();
    const subscription = await subscribe({
      kind: 'AGENT_TO_MCP_SERVER',
      sourceId: agentId,
      targetId: serverId,
    });

    const removed = await relay.call('DELETE', `/relay/v1/mcp-servers/${serverId}`);
    const gone = await relay.call('GET', `/relay/v1/subscriptions/${subscription.id}`);

    expect(removed.status).toBe(204);
    expect(gone.status).toBe(404);
  });
});
