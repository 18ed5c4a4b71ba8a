import {
  AgentClient,
  ApiError,
  AuthenticationError,
  McpJsonRpcError,
  McpNotSubscribedError,
  TokenRefreshError,
} from '@agp/agent-sdk';
import { McpTestServer, startMcpTestServer } from '@agp/testing';

import { FaultyProxy } from './agent-sdk/faulty-proxy';
import { agentConfig, claimsOf, countingClient, registerAgent } from './agent-sdk/sdk-world';
import { MCP_BASE_URL, McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld } from './mcp/mcp-world';

/**
 * The client library against the running platform in both of D2's shapes: tokens, the D21 reads,
 * the request behaviour (counted through a proxy that fails on purpose), MCP through the relay and
 * every exception the platform can cause.
 */
describe.each<PlatformMode>(['services', 'embedded'])('AgentClient (%s)', (mode) => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let world: McpWorld;
  let proxy: FaultyProxy;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    tools = await startMcpTestServer();
    world = await McpWorld.create(platform);
    proxy = await new FaultyProxy(platform.baseUrl).start();
  });

  afterAll(async () => {
    await proxy?.close();
    await tools?.close();
    await platform?.close();
  });

  it('should get one token per scope and reuse it when calls follow each other', async () => {
    const agent = await registerAgent(world);
    const { client, tokenRequests } = countingClient(agent.config);

    await client.listSubscriptions();
    await client.listMcpServers();
    const api = await client.tokens.token('svc:api');
    const mcp = await client.tokens.token('mcp:call');

    expect(tokenRequests).toEqual({ 'svc:api': 1, 'mcp:call': 1 });
    expect(claimsOf(api)).toMatchObject({ sub: agent.id, aud: MCP_BASE_URL, scope: 'svc:api' });
    expect(claimsOf(mcp)).toMatchObject({ aud: `${MCP_BASE_URL}/relay`, scope: 'mcp:call' });
  });

  it('should read the subscriptions, MCP servers and LLM gateways of the agent when it is subscribed', async () => {
    const agent = await registerAgent(world);
    const peer = await registerAgent(world);
    const serverId = await world.mcpServer(tools.url);
    await world.subscribe(agent.id, serverId, ['echo']);
    await world.ok('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_AGENT',
      sourceId: agent.id,
      targetId: peer.id,
    });
    const sut = new AgentClient(agent.config);

    const subscriptions = await sut.listSubscriptions();
    const servers = await sut.listMcpServers();
    const gateways = await sut.listLlmGatewaySubscriptions();

    expect(subscriptions.map((s) => [s.kind, s.targetId]).sort()).toEqual(
      [
        ['AGENT_TO_AGENT', peer.id],
        ['AGENT_TO_MCP_SERVER', serverId],
      ].sort(),
    );
    expect(servers).toEqual([
      expect.objectContaining({
        mcpServerId: serverId,
        transport: 'STREAMABLE_HTTP',
        tools: ['echo'],
      }),
    ]);
    expect(gateways).toEqual([]);
  });

  it('should read in pages of 100 when it lists subscriptions', async () => {
    const agent = await registerAgent(world);
    const sut = new AgentClient({ ...agent.config, baseUrl: proxy.url });

    await sut.listSubscriptions();

    const reads = proxy.requests.filter((r) => r.path.startsWith(`/relay/v1/agents/${agent.id}/`));
    expect(reads.map((r) => r.path)).toEqual([
      `/relay/v1/agents/${agent.id}/subscriptions?page=1&pageSize=100`,
    ]);
  });

  it('should raise an ApiError with 403 when an agent reads another agent’s subscriptions', async () => {
    const agent = await registerAgent(world);
    const other = await registerAgent(world);
    const sut = new AgentClient(agent.config);

    const error = await sut.listSubscriptions(other.id).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      statusCode: 403,
      responseBody: expect.objectContaining({ status: 403 }),
    });
  });

  it('should retry a 5xx with backoff and succeed when the server recovers within the retries', async () => {
    const agent = await registerAgent(world);
    const sut = new AgentClient({ ...agent.config, baseUrl: proxy.url });
    const path = `/relay/v1/agents/${agent.id}/mcp-servers`;
    proxy.fail(path, 3, 503);

    await expect(sut.listMcpServers()).resolves.toEqual([]);

    expect(proxy.count(path)).toBe(4);
  });

  it('should raise an ApiError after the maximum of retries when the server keeps failing', async () => {
    const agent = await registerAgent(world);
    const sut = new AgentClient({ ...agent.config, baseUrl: proxy.url, maxRetries: 2 });
    const path = `/relay/v1/agents/${agent.id}/mcp-servers`;
    proxy.fail(path, 5, 502);

    const error = await sut.listMcpServers().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 502 });
    expect(proxy.count(path)).toBe(3);
  });

  it('should retry network failures and succeed when the connection comes back', async () => {
    const agent = await registerAgent(world);
    const sut = new AgentClient({ ...agent.config, baseUrl: proxy.url });
    const path = `/relay/v1/agents/${agent.id}/subscriptions`;
    proxy.fail(path, 2, 'drop');

    await expect(sut.listSubscriptions()).resolves.toEqual([]);

    expect(proxy.count(path)).toBe(3);
  });

  it('should fail at once without retrying when the answer is a 4xx other than 401', async () => {
    const agent = await registerAgent(world);
    const sut = new AgentClient({ ...agent.config, baseUrl: proxy.url });
    const path = `/relay/v1/agents/${agent.id}/mcp-servers`;
    proxy.fail(path, 3, 429);

    await expect(sut.listMcpServers()).rejects.toMatchObject({ statusCode: 429 });

    expect(proxy.count(path)).toBe(1);
  });

  it('should clear the token and retry once with a new one when the answer is 401', async () => {
    const agent = await registerAgent(world);
    const { client: sut, tokenRequests } = countingClient({ ...agent.config, baseUrl: proxy.url });
    const path = `/relay/v1/agents/${agent.id}/subscriptions`;
    await sut.listSubscriptions();
    proxy.fail(path, 1, 401);

    await expect(sut.listSubscriptions()).resolves.toEqual([]);

    expect(tokenRequests['svc:api']).toBe(2);
    expect(proxy.count(path)).toBe(3);
  });

  it('should raise an AuthenticationError when the answer is still 401 after the new token', async () => {
    const agent = await registerAgent(world);
    const { client: sut, tokenRequests } = countingClient({ ...agent.config, baseUrl: proxy.url });
    const path = `/relay/v1/agents/${agent.id}/subscriptions`;
    proxy.fail(path, 2, 401);

    const error = await sut.listSubscriptions().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).not.toBeInstanceOf(TokenRefreshError);
    expect(tokenRequests['svc:api']).toBe(2);
    expect(proxy.count(path)).toBe(2);
  });

  it('should refuse the calls of a suspended agent and work again with a fresh token when it is reactivated', async () => {
    const agent = await registerAgent(world);
    const { client: sut, tokenRequests } = countingClient(agent.config);
    await sut.listSubscriptions();

    await world.ok('PATCH', `/tenant-auth/v1/agents/${agent.id}`, { status: 'SUSPENDED' });
    const refused = await sut.listSubscriptions().catch((e: unknown) => e);
    await world.ok('PATCH', `/tenant-auth/v1/agents/${agent.id}`, { status: 'ACTIVE' });
    const after = await sut.listSubscriptions();

    expect(refused).toBeInstanceOf(AuthenticationError);
    expect(after).toEqual([]);
    expect(tokenRequests['svc:api']).toBeGreaterThanOrEqual(3);
  });

  it('should raise a TokenRefreshError when the token endpoint refuses the secret', async () => {
    const agent = await registerAgent(world);
    const sut = new AgentClient({ ...agent.config, clientSecret: 'not-the-secret' });

    const error = await sut.listMcpServers().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TokenRefreshError);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ statusCode: 401, responseBody: { error: 'invalid_client' } });
  });

  it('should raise a TokenRefreshError after the retries when the token endpoint is unreachable', async () => {
    const agent = await registerAgent(world);
    const sut = new AgentClient(
      agentConfig(platform.baseUrl, agent.id, agent.secret, {
        tokenUrl: `${proxy.url}/tenant-auth/v1/oauth/token`,
      }),
    );
    proxy.fail('/tenant-auth/v1/oauth/token', 4, 'drop');

    await expect(sut.tokens.token('svc:api')).rejects.toBeInstanceOf(TokenRefreshError);
  });

  it('should list and call a tool through the relay when the agent is subscribed to the server', async () => {
    const agent = await registerAgent(world);
    const serverId = await world.mcpServer(tools.url);
    await world.subscribe(agent.id, serverId);
    const sut = new AgentClient(agent.config).mcp(serverId);

    try {
      const listed = await sut.listTools();
      const result = await sut.callTool('echo', { text: 'through the relay' });

      expect(listed.map((tool) => tool.name)).toContain('echo');
      expect(JSON.stringify(result.content)).toContain('through the relay');
    } finally {
      await sut.close();
    }
  });

  it('should raise McpNotSubscribedError when the agent has no subscription to the server', async () => {
    const agent = await registerAgent(world);
    const serverId = await world.mcpServer(tools.url);
    const sut = new AgentClient(agent.config).mcp(serverId);

    const error = await sut.listTools().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(McpNotSubscribedError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 403, mcpServerId: serverId });
    await sut.close();
  });

  it('should raise McpJsonRpcError with the code and data when the answer carries a JSON-RPC error', async () => {
    const agent = await registerAgent(world);
    const serverId = await world.mcpServer(tools.url);
    await world.subscribe(agent.id, serverId);
    const sut = new AgentClient(agent.config).mcp(serverId);

    try {
      const unknownMethod = await sut.request('no/such_method').catch((e: unknown) => e);

      expect(unknownMethod).toBeInstanceOf(McpJsonRpcError);
      expect(unknownMethod).toMatchObject({ code: -32601 });
    } finally {
      await sut.close();
    }
  });
});
