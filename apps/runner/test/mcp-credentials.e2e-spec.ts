import { randomBytes, randomUUID } from 'node:crypto';

import { CredentialCipher } from '@agp/relay';
import {
  McpTestServer,
  connectMcpClient,
  eventually,
  refusalOf,
  startMcpTestServer,
} from '@agp/testing';
import { Client } from 'pg';

import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld, TestAgent } from './mcp/mcp-world';

/**
 * D37: the relay calls an MCP server with the server's own credential, opened from its sealed
 * form, in the header the registry names; the agent's token never travels upstream.
 */
describe.each<PlatformMode>(['services', 'embedded'])('MCP upstream credentials (%s)', (mode) => {
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

  async function subscribedAgent(serverId: string): Promise<TestAgent> {
    const agent = await world.agent();
    await world.subscribe(agent.id, serverId);
    return agent;
  }

  /** Calls echo with a marker and answers the headers the server saw for that call. */
  async function headersSeen(agent: TestAgent, serverId: string): Promise<Record<string, unknown>> {
    const marker = randomUUID();
    const sut = await connectMcpClient(world.mcpUrl(serverId), { token: agent.mcpToken });
    try {
      await sut.client.callTool({ name: 'echo', arguments: { text: marker } });
    } finally {
      await sut.close();
    }
    const call = tools.calls.find((c) => c.arguments.text === marker);
    if (!call) {
      throw new Error('the server did not receive the call');
    }
    return call.headers;
  }

  it('should send the credential as a bearer token in Authorization when no header is named', async () => {
    const serverId = await world.mcpServer(tools.url, { credential: 'upstream-token-1' });
    const agent = await subscribedAgent(serverId);

    const headers = await headersSeen(agent, serverId);

    expect(headers.authorization).toBe('Bearer upstream-token-1');
    expect(JSON.stringify(headers)).not.toContain(agent.mcpToken);
  });

  it('should send the raw value in the named header, and nothing in Authorization, once the credential is changed', async () => {
    const serverId = await world.mcpServer(tools.url, { credential: 'old' });
    const agent = await subscribedAgent(serverId);
    await world.ok('PATCH', `/relay/v1/mcp-servers/${serverId}`, {
      credential: 'k-2',
      credentialHeader: 'X-Api-Key',
    });

    // T2: the route is cached for half a second on each replica.
    const headers = await eventually(async () => {
      const seen = await headersSeen(agent, serverId);
      expect(seen['x-api-key']).toBe('k-2');
      return seen;
    });

    expect(headers.authorization).toBeUndefined();
    expect(JSON.stringify(headers)).not.toContain(agent.mcpToken);
  });

  it('should send no credential and not the agent token when the server has none', async () => {
    const serverId = await world.mcpServer(tools.url);
    const agent = await subscribedAgent(serverId);

    const headers = await headersSeen(agent, serverId);

    expect(headers.authorization).toBeUndefined();
    expect(JSON.stringify(headers)).not.toContain(agent.mcpToken);
  });

  it('should answer 502 naming the server, and audit ERROR, when its credential was sealed with another key', async () => {
    const serverId = await world.mcpServer(tools.url, { credential: 'c' });
    const agent = await subscribedAgent(serverId);
    const sql = new Client({ connectionString: platform.databaseUrl });
    await sql.connect();
    try {
      const foreign = new CredentialCipher(randomBytes(32)).encrypt('c');
      await sql.query('UPDATE relay.mcp_servers SET credential_ciphertext = $2 WHERE id = $1', [
        serverId,
        foreign,
      ]);
    } finally {
      await sql.end();
    }
    const correlationId = randomUUID();
    const before = tools.requestCount();

    const refusal = await refusalOf(
      connectMcpClient(world.mcpUrl(serverId), {
        token: agent.mcpToken,
        headers: { 'x-correlation-id': correlationId },
      }),
    );

    expect(refusal.httpStatus).toBe(502);
    expect(tools.requestCount()).toBe(before);
    const trace = await world.trace(correlationId, (items) =>
      items.some((e) => e.action === 'ERROR'),
    );
    expect(trace.find((e) => e.action === 'ERROR')?.decision).toMatchObject({
      reasons: [expect.stringContaining('credential cannot be opened')],
    });
  });
});
