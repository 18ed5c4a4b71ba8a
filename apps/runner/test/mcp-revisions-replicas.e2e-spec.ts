import { randomUUID } from 'node:crypto';

import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { LOG_POLICY } from './mcp/mcp-policies';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';
import { legacyClient, modernClient } from './mcp/revision-clients';
import { RevisionServer, startLegacyServer, startModernServer } from './mcp/revision-servers';

/**
 * A load balancer without stickiness: a request `isMoved` picks goes to the second replica, the
 * rest to the first (through the gateway). Counts what it moved, so a test can show it moved any.
 */
function splitting(
  first: string,
  second: string,
  isMoved: (body: Json) => boolean,
): { fetch: typeof fetch; moved: () => number } {
  let moved = 0;
  return {
    moved: () => moved,
    fetch: (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const text = typeof init?.body === 'string' ? init.body : undefined;
      const body = text ? (JSON.parse(text) as Json) : undefined;
      if (body && !Array.isArray(body) && isMoved(body)) {
        moved++;
        return fetch(url.replace(first, second), init);
      }
      return fetch(input, init);
    },
  };
}

/**
 * Issue 35, what was left of item 1: input requests across revisions when the answer lands on
 * another relay replica than the one holding the call (T101), and a 2025 tool that acts before it
 * asks, which must act once for a 2026 client (T102). Production's shape, two relay replicas.
 */
describe('MCP input requests across revisions and relay replicas', () => {
  let platform: McpPlatform;
  let world: McpWorld;
  let replica: string;
  let legacy: { server: RevisionServer; id: string };
  let modern: { server: RevisionServer; id: string };

  beforeAll(async () => {
    platform = await startMcpPlatform('services');
    replica = await platform.startRelayReplica!();
    world = await McpWorld.create(platform);
    const legacyServer = await startLegacyServer();
    const modernServer = await startModernServer();
    legacy = { server: legacyServer, id: await world.mcpServer(legacyServer.url) };
    modern = { server: modernServer, id: await world.mcpServer(modernServer.url) };
  });

  afterAll(async () => {
    await legacy?.server.close();
    await modern?.server.close();
    await platform?.close();
  });

  async function agentFor(serverId: string): Promise<TestAgent> {
    const agent = await world.agent();
    await world.subscribe(agent.id, serverId);
    await world.bindToAgent(agent.id, LOG_POLICY);
    return agent;
  }

  it("should deliver a 2025-11-25 client's answer to a 2026-07-28 server's input request when the answer lands on the other replica", async () => {
    const agent = await agentFor(modern.id);
    const correlationId = randomUUID();
    // The answer to the relay's elicitation (a JSON-RPC response) goes to the second replica.
    const router = splitting(platform.baseUrl, replica, (body) => body.method === undefined);
    const client = await legacyClient(world.mcpUrl(modern.id), agent, correlationId, router);
    try {
      const confirmed = await client.call('confirm', { what: 'deploy' });

      expect(confirmed).toBe('deploy: done');
      expect(router.moved()).toBe(1);
      const trace = await world.trace(correlationId, (items) =>
        items.some((e) => JSON.stringify(e).includes('elicitation/create')),
      );
      expect(trace.some((e) => (e.details as Json).toolName === 'confirm')).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('should run a 2025-11-25 tool that acts before it asks once for a 2026-07-28 client whose retry lands on the other replica', async () => {
    const agent = await agentFor(legacy.id);
    const correlationId = randomUUID();
    // The retry that carries the client's answers goes to the second replica.
    const router = splitting(
      platform.baseUrl,
      replica,
      (body) => (body.params as Json | undefined)?.inputResponses !== undefined,
    );
    const client = await modernClient(world.mcpUrl(legacy.id), agent, correlationId, router);
    const before = legacy.server.executions();
    try {
      const kept = await client.call('act_then_ask', { what: 'invoice' });

      expect(kept).toBe('invoice: kept');
      expect(router.moved()).toBe(1);
      expect(legacy.server.executions() - before).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('should refuse a 2026-07-28 retry whose request differs from the held call, and run the tool no more', async () => {
    const agent = await agentFor(legacy.id);
    const correlationId = randomUUID();
    const client = await modernClient(world.mcpUrl(legacy.id), agent, correlationId, {
      // The retry changes the call's arguments: it is not the call that asked.
      fetch: (input, init) => {
        const text = typeof init?.body === 'string' ? init.body : '';
        const body = text ? (JSON.parse(text) as Json) : {};
        const params = body.params as Json | undefined;
        if (params?.inputResponses !== undefined) {
          const changed = { ...params, arguments: { what: 'everything' } };
          return fetch(input, { ...init, body: JSON.stringify({ ...body, params: changed }) });
        }
        return fetch(input, init);
      },
    });
    const before = legacy.server.executions();
    try {
      const refused = await client.call('act_then_ask', { what: 'invoice' }).catch((e: Error) => e);

      expect(refused).toBeInstanceOf(Error);
      expect(String((refused as Error).message)).toContain('no call of this request is waiting');
      expect(legacy.server.executions() - before).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("should refuse a 2026-07-28 retry sent to another server's route, and run neither tool again", async () => {
    const otherServer = await startLegacyServer();
    try {
      const otherId = await world.mcpServer(otherServer.url);
      const agent = await agentFor(legacy.id);
      await world.subscribe(agent.id, otherId);
      // The retry names the call held on the first server but goes to the second's route (T102).
      const router = {
        fetch: ((input, init) => {
          const text = typeof init?.body === 'string' ? init.body : '';
          const body = text ? (JSON.parse(text) as Json) : {};
          if ((body.params as Json | undefined)?.inputResponses !== undefined) {
            const url = String(input instanceof Request ? input.url : input);
            return fetch(url.replace(world.mcpUrl(legacy.id), world.mcpUrl(otherId)), init);
          }
          return fetch(input, init);
        }) as typeof fetch,
      };
      const client = await modernClient(world.mcpUrl(legacy.id), agent, randomUUID(), router);
      const before = legacy.server.executions();
      try {
        const refused = await client
          .call('act_then_ask', { what: 'invoice' })
          .catch((e: Error) => e);

        expect(refused).toBeInstanceOf(Error);
        expect(String((refused as Error).message)).toContain('no call of this request is waiting');
        expect(legacy.server.executions() - before).toBe(1);
        expect(otherServer.executions()).toBe(0);
      } finally {
        await client.close();
      }
    } finally {
      await otherServer.close();
    }
  });
});
