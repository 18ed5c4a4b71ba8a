import { AgentClient, AgentDirectory, ApiError } from '@agp/agent-sdk';
import { A2aTestAgent, McpTestServer, startA2aTestAgent, startMcpTestServer } from '@agp/testing';

import { registerAgent } from './agent-sdk/sdk-world';
import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld } from './mcp/mcp-world';

/**
 * Issue 40: the library's directory searches the relay's discovery with the agent's own token,
 * in both of D2's shapes: ranked free text, exact filters, cursor pages, and visibility (a PRIVATE
 * agent is found only once subscribed to).
 */
describe.each<PlatformMode>(['services', 'embedded'])('AgentDirectory search (%s)', (mode) => {
  let platform: McpPlatform;
  let world: McpWorld;
  let upstream: A2aTestAgent;
  let tools: McpTestServer;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    world = await McpWorld.create(platform);
    upstream = await startA2aTestAgent();
    tools = await startMcpTestServer({ stateless: true, jsonResponse: true });
  });

  afterAll(async () => {
    await tools?.close();
    await upstream?.close();
    await platform?.close();
  });

  /** An agent of the tenant whose card (served by the test agent) says what it can do. */
  async function agentWithCard(card: Record<string, unknown>, visibility: string): Promise<string> {
    const agent = await registerAgent(world);
    upstream.card = { ...upstream.card, ...card };
    await world.ok('PATCH', `/relay/v1/agents/${agent.id}`, {
      agentCardUrl: upstream.cardUrl,
      visibility,
    });
    await world.ok('POST', `/relay/v1/agents/${agent.id}/agent-card/refresh`, undefined, 200);
    return agent.id;
  }

  it('should find agents by text and filters, page them and hide a PRIVATE one until subscribed', async () => {
    const seeker = await registerAgent(world);
    const translator = await agentWithCard(
      {
        name: 'Polyglot',
        description: 'Translates contracts between English and German',
        skills: [
          {
            id: 'translate-contracts',
            name: 'Contract translation',
            description: 'Translate legal contracts',
            tags: ['translation', 'legal'],
          },
        ],
      },
      'INTERNAL',
    );
    const auditor = await agentWithCard(
      {
        name: 'Ledger',
        description: 'Reconciles invoices against payments',
        skills: [
          {
            id: 'reconcile',
            name: 'Invoice reconciliation',
            description: 'Match payments to invoices',
            tags: ['finance', 'legal'],
          },
        ],
      },
      'PRIVATE',
    );
    const sut = new AgentDirectory(new AgentClient(seeker.config));

    const byText = await sut.search.agents({ q: 'translate a German contract' });
    const byTag = await sut.search.allAgents({ tag: 'legal', limit: 1 });
    const hidden = await sut.search.agents({ skill: 'reconcile' });
    await world.ok('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_AGENT',
      sourceId: seeker.id,
      targetId: auditor,
    });
    const subscribed = await sut.search.agents({ skill: 'Invoice Reconciliation' });

    expect(byText.items[0]).toMatchObject({
      agentId: translator,
      name: expect.any(String),
      visibility: 'INTERNAL',
      skills: [expect.objectContaining({ id: 'translate-contracts' })],
      agentCardUrl: expect.stringContaining(`/relay/a2a/${translator}/.well-known/agent-card.json`),
    });
    expect(byText.items[0].score).toBeGreaterThan(0);
    expect(byTag.map((a) => a.agentId)).toEqual([translator]);
    expect(hidden.items).toEqual([]);
    expect(subscribed.items.map((a) => a.agentId)).toEqual([auditor]);
  });

  it('should find an MCP server by a tool it listed and refuse an agent-only filter with a 400', async () => {
    const seeker = await registerAgent(world);
    const serverId = await world.mcpServer(tools.url, { visibility: 'INTERNAL' });
    await world.subscribe(seeker.id, serverId);
    const client = new AgentClient(seeker.config);
    await client.mcp(serverId).listTools();
    const sut = new AgentDirectory(client);

    const found = await sut.search.mcpServers({ tool: 'lookup_customer' });
    const refused = await client
      .request('GET', '/relay/v1/discovery/mcp-servers?inputMode=text/plain')
      .catch((error: unknown) => error);

    expect(found.items.map((s) => s.mcpServerId)).toEqual([serverId]);
    expect(found.items[0].tools).toEqual(expect.arrayContaining(['echo', 'lookup_customer']));
    expect(found.items[0].relayUrl).toContain(`/relay/mcp/${serverId}`);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).statusCode).toBe(400);
  });
});
