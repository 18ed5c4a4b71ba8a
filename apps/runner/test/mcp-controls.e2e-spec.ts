import {
  McpTestServer,
  connectMcpClient,
  eventually,
  refusalOf,
  startMcpTestServer,
  toolText,
} from '@agp/testing';

import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld, TestAgent } from './mcp/mcp-world';

/** T2: what a replica must see within one second of a change made on another (D32, D35). */
const ONE_SECOND = { attempts: 20, intervalMs: 50 };

/**
 * Issue 11 "Must show": kill switches (D35) engaged and released, a rate limit hit (D36), grants
 * changing under a running session (D32), each holding across relay replicas.
 */
describe.each<PlatformMode>(['services', 'embedded'])('MCP relay controls (%s)', (mode) => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let world: McpWorld;
  let serverId: string;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    tools = await startMcpTestServer();
    world = await McpWorld.create(platform);
    serverId = await world.mcpServer(tools.url);
  });

  afterAll(async () => {
    await tools?.close();
    await platform?.close();
  });

  async function subscribedAgent(
    grant?: string[] | null,
  ): Promise<TestAgent & { subscriptionId: string }> {
    const agent = await world.agent();
    return { ...agent, subscriptionId: await world.subscribe(agent.id, serverId, grant) };
  }

  function connect(agent: TestAgent, url = world.mcpUrl(serverId)) {
    return connectMcpClient(url, { token: agent.mcpToken });
  }

  it('should refuse every call with -31005 while a kill switch on the agent is engaged, and serve again once it is released', async () => {
    const agent = await subscribedAgent();
    const sut = await connect(agent);
    try {
      const engaged = await world.ok<{ id: string }>('POST', '/relay/v1/kill-switches', {
        scope: 'AGENT',
        targetId: agent.id,
        reason: 'incident 42',
      });
      const refusal = await refusalOf(
        sut.client.callTool({ name: 'echo', arguments: { text: 'x' } }),
      );
      await world.ok('DELETE', `/relay/v1/kill-switches/${engaged.id}`);
      const answer = await eventually(() =>
        sut.client.callTool({ name: 'echo', arguments: { text: 'back' } }),
      );

      expect(refusal.rpcCode).toBe(-31005);
      expect(JSON.stringify(refusal.data)).toContain('incident 42');
      expect(toolText(answer)).toContain('back');
    } finally {
      await sut.close();
    }
  });

  it('should refuse the server to every agent while a kill switch on the MCP server is engaged', async () => {
    const agent = await subscribedAgent();
    const engaged = await world.ok<{ id: string }>('POST', '/relay/v1/kill-switches', {
      scope: 'MCP_SERVER',
      targetId: serverId,
      reason: 'server compromised',
    });
    try {
      const refusal = await refusalOf(connect(agent));

      expect(refusal.rpcCode ?? refusal.httpStatus).toBe(-31005);
    } finally {
      await world.ok('DELETE', `/relay/v1/kill-switches/${engaged.id}`);
    }
  });

  it('should answer 429 with Retry-After and record RATE_LIMIT once when an agent goes over its limit', async () => {
    const agent = await subscribedAgent();
    await world.ok('PATCH', '/relay/v1/traffic-settings', { rateLimits: { agentPerMinute: 5 } });
    try {
      const ping = () =>
        fetch(world.mcpUrl(serverId), {
          method: 'POST',
          headers: {
            authorization: `Bearer ${agent.mcpToken}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
      // T2: the new limit reaches the relay within half a second; calls count from then on.
      const limited = await eventually(async () => {
        const answer = await ping();
        expect(answer.status).toBe(429);
        return answer;
      });
      const again = await ping();

      expect(limited.status).toBe(429);
      expect(again.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // D41, D61: the refusal is JSON-RPC, answering the request by its id.
      expect(await limited.json()).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -31029, data: { agpCode: 'rate_limited', retryAfter: expect.any(Number) } },
      });
      const events = await eventually(async () => {
        const page = await world.api<{
          items: Array<{ eventType: string; actor: { id: string } }>;
        }>('GET', '/audit/v1/events?eventType=RATE_LIMIT');
        const mine = page.body.items.filter((e) => e.actor?.id === agent.id);
        expect(mine.length).toBeGreaterThan(0);
        return mine;
      });
      expect(events).toHaveLength(1);
    } finally {
      await world.ok('PATCH', '/relay/v1/traffic-settings', {
        rateLimits: { agentPerMinute: null },
      });
    }
  });

  it('should apply a grant changed under a running session to the next tools/list and tools/call', async () => {
    const agent = await subscribedAgent(['echo', 'lookup_customer']);
    const sut = await connect(agent);
    try {
      const before = await sut.client.listTools();
      await world.ok('PATCH', `/relay/v1/subscriptions/${agent.subscriptionId}`, {
        tools: ['echo'],
      });
      const after = await eventually(
        async () => {
          const listed = await sut.client.listTools();
          expect(listed.tools.map((t) => t.name)).toEqual(['echo']);
          return listed;
        },
        ONE_SECOND.attempts,
        ONE_SECOND.intervalMs,
      );
      const refusal = await refusalOf(
        sut.client.callTool({ name: 'lookup_customer', arguments: { customerId: '1' } }),
      );

      expect(before.tools.map((t) => t.name).sort()).toEqual(['echo', 'lookup_customer']);
      expect(after.tools).toHaveLength(1);
      expect(refusal.rpcCode).toBe(-31001);
    } finally {
      await sut.close();
    }
  });

  if (mode === 'services') {
    it('should have a second relay replica refuse within one second after a kill switch or an unsubscribe made through the first', async () => {
      const replica = await platform.startRelayReplica!();
      const agent = await subscribedAgent();
      const viaReplica = `${replica}/relay/mcp/${serverId}`;
      const sut = await connect(agent, viaReplica);
      try {
        await sut.client.ping();
        const engaged = await world.ok<{ id: string }>('POST', '/relay/v1/kill-switches', {
          scope: 'AGENT',
          targetId: agent.id,
          reason: 'stop now',
        });
        const stopped = await eventually(
          async () => {
            const refusal = await refusalOf(sut.client.callTool({ name: 'echo', arguments: {} }));
            expect(refusal.rpcCode).toBe(-31005);
            return refusal;
          },
          ONE_SECOND.attempts,
          ONE_SECOND.intervalMs,
        );
        await world.ok('DELETE', `/relay/v1/kill-switches/${engaged.id}`);
        await world.ok('DELETE', `/relay/v1/subscriptions/${agent.subscriptionId}`);
        const unsubscribed = await eventually(
          async () => {
            const refusal = await refusalOf(connect(agent, viaReplica));
            expect(refusal.httpStatus).toBe(403);
            return refusal;
          },
          ONE_SECOND.attempts,
          ONE_SECOND.intervalMs,
        );

        expect(stopped.rpcCode).toBe(-31005);
        expect(unsubscribed.httpStatus).toBe(403);
      } finally {
        await sut.close().catch(() => undefined);
      }
    });
  }
});
