import { randomUUID } from 'node:crypto';

import {
  McpTestServer,
  connectMcpClient,
  eventually,
  refusalOf,
  startMcpTestServer,
} from '@agp/testing';

import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';
import { invalidBlocks } from './guardrails/validation-trail';

const INVALID_BLOCKS = invalidBlocks('relist.checks');

/**
 * guardrails.md GR38: when a server announces `notifications/tools/list_changed` (the official
 * MCP SDK's server, updating a tool), the relay lists its tools itself, once for a burst, so the
 * schemas calls are checked against are the server's new ones though the client never lists again.
 */
describe('tools listed again on notifications/tools/list_changed (GR38)', () => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let world: McpWorld;
  let serverId: string;
  let agent: TestAgent;

  beforeAll(async () => {
    platform = await startMcpPlatform('embedded');
    tools = await startMcpTestServer({ structuredTool: true });
    world = await McpWorld.create(platform);
    serverId = await world.mcpServer(tools.url);
    agent = await world.agent();
    await world.subscribe(agent.id, serverId, null);
    await world.bindToAgent(agent.id, INVALID_BLOCKS);
  });

  afterAll(async () => {
    await tools?.close();
    await platform?.close();
  });

  const qtyMinimum = async (): Promise<unknown> => {
    const listed = await world.ok<{ items: Json[] }>(
      'GET',
      `/relay/v1/mcp-servers/${serverId}/tools`,
    );
    const quote = listed.items.find((t) => t.name === 'quote_order');
    const schema = quote?.inputSchema as { properties?: { qty?: { minimum?: unknown } } };
    return schema?.properties?.qty?.minimum;
  };

  it("should list a changed server's tools once for a burst, and check calls against the new schema", async () => {
    const sut = await connectMcpClient(world.mcpUrl(serverId), {
      token: agent.mcpToken,
      headers: { 'x-correlation-id': randomUUID() },
    });
    try {
      await sut.client.listTools();
      const fine = await sut.client.callTool({
        name: 'quote_order',
        arguments: { sku: 'a-1', qty: 2 },
      });
      expect(fine.structuredContent).toEqual({ total: 5, currency: 'EUR' });
      expect(await qtyMinimum()).toBe(1);
      const listedBefore = tools.toolLists();

      tools.setQuoteMinimum(5);
      tools.setQuoteMinimum(6);

      await eventually(async () => expect(await qtyMinimum()).toBe(6));
      // Nothing else lists: the client was never asked to.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(tools.toolLists() - listedBefore).toBe(1);
      const refusal = await refusalOf(
        sut.client.callTool({ name: 'quote_order', arguments: { sku: 'a-1', qty: 5 } }),
      );
      expect(refusal.data).toMatchObject({ reasons: ['invalid: TOOL_ARGUMENTS'] });
      expect(tools.calls.filter((c) => JSON.stringify(c.arguments).includes('"qty":5'))).toEqual(
        [],
      );
    } finally {
      await sut.close();
    }
  });
});
