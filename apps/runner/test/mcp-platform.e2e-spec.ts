import { McpTestServer, startMcpTestServer } from '@agp/testing';

import { MCP_BASE_URL, McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld } from './mcp/mcp-world';

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/**
 * The harness the MCP interoperability tests and the relay's benchmark stand on: the platform in
 * both of D2's shapes, an agent from tenant-auth known to the relay, its two tokens (D8) and an
 * MCP server registered at the test server's address.
 */
describe.each<PlatformMode>(['services', 'embedded'])('MCP platform harness (%s)', (mode) => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let world: McpWorld;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    tools = await startMcpTestServer();
    world = await McpWorld.create(platform);
  });

  afterAll(async () => {
    await tools?.close();
    await platform?.close();
  });

  it('should give an agent an mcp:call token for the relay and an svc:api token for the API when it asks the token endpoint', async () => {
    const agent = await world.agent();

    expect(claimsOf(agent.mcpToken)).toMatchObject({
      sub: agent.id,
      kind: 'AGENT',
      aud: `${MCP_BASE_URL}/relay`,
      scope: 'mcp:call',
    });
    expect(claimsOf(agent.apiToken)).toMatchObject({ sub: agent.id, aud: MCP_BASE_URL });
    expect((await world.api('GET', `/relay/v1/agents/${agent.id}`)).body).toMatchObject({
      id: agent.id,
      name: agent.name,
    });
  });

  it('should register the test MCP server at its loopback address when the administrator creates it', async () => {
    const serverId = await world.mcpServer(tools.url);

    const stored = await world.api('GET', `/relay/v1/mcp-servers/${serverId}`);

    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      id: serverId,
      url: tools.url,
      transport: 'STREAMABLE_HTTP',
    });
  });

  it('should keep two tenants apart when each has its own world', async () => {
    const other = await McpWorld.create(platform);
    const serverId = await world.mcpServer(tools.url);

    expect((await other.api('GET', `/relay/v1/mcp-servers/${serverId}`)).status).toBe(404);
  });
});
