import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

import { connectMcpClient, refusalOf } from '@agp/testing';

import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';

type Behaviour = (request: IncomingMessage, body: Json, response: ServerResponse) => void;

/** An HTTP server that answers `initialize` properly, then whatever the test's behaviour says. */
async function startFaultyServer(
  behaviour: Behaviour,
): Promise<{ url: string; close(): Promise<void>; requests: () => number }> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests += 1;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Json;
      if (body.method === 'initialize') {
        response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's-1' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: body.id,
            result: {
              protocolVersion: '2025-06-18',
              capabilities: { tools: {} },
              serverInfo: { name: 'faulty', version: '1' },
            },
          }),
        );
        return;
      }
      if (body.method === 'notifications/initialized') {
        response.writeHead(202).end();
        return;
      }
      behaviour(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    requests: () => requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Issue 11 § 7 and "Bad input": a server that answers garbage, cuts its SSE stream mid-event or
 * never answers gives the agent a clear error naming the server, audited as ERROR; the relay keeps
 * serving (T6).
 */
describe.each<PlatformMode>(['services', 'embedded'])('MCP relay upstream faults (%s)', (mode) => {
  let platform: McpPlatform;
  let world: McpWorld;
  const servers: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    world = await McpWorld.create(platform);
  });

  afterAll(async () => {
    for (const server of servers) {
      await server.close();
    }
    await platform?.close();
  });

  async function agentCalling(
    behaviour: Behaviour,
    extra: Json = {},
  ): Promise<{ agent: TestAgent; serverId: string }> {
    const server = await startFaultyServer(behaviour);
    servers.push(server);
    const serverId = await world.mcpServer(server.url, extra);
    const agent = await world.agent();
    await world.subscribe(agent.id, serverId);
    return { agent, serverId };
  }

  async function callTool(agent: TestAgent, serverId: string, correlationId: string) {
    const sut = await connectMcpClient(world.mcpUrl(serverId), {
      token: agent.mcpToken,
      headers: { 'x-correlation-id': correlationId },
    });
    try {
      return await refusalOf(sut.client.callTool({ name: 'anything', arguments: {} }));
    } finally {
      await sut.close();
    }
  }

  async function errorHop(correlationId: string): Promise<Json> {
    const trace = await world.trace(correlationId, (items) =>
      items.some((e) => e.action === 'ERROR'),
    );
    return trace.find((e) => e.action === 'ERROR')!;
  }

  it('should answer 502 naming the server and audit ERROR when the server answers a body that is not JSON', async () => {
    const { agent, serverId } = await agentCalling((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('<html>oops</html>');
    });
    const correlationId = randomUUID();

    const refusal = await callTool(agent, serverId, correlationId);

    expect(refusal.httpStatus).toBe(502);
    expect((await errorHop(correlationId)).decision).toMatchObject({
      reasons: [expect.stringContaining('answered a body that is not JSON')],
    });
  });

  it('should give the waiting request a -31010 error when the server cuts its SSE stream mid-event', async () => {
    const { agent, serverId } = await agentCalling((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: message\ndata: {"jsonrpc":"2.0","id":');
      setTimeout(() => response.destroy(), 20);
    });
    const correlationId = randomUUID();

    const refusal = await callTool(agent, serverId, correlationId);

    expect(refusal.rpcCode).toBe(-31010);
    expect(refusal.message).toContain('MCP server');
    expect((await errorHop(correlationId)).details).toMatchObject({ outcome: 'ERROR' });
  });

  it('should give -31010 when an SSE event carries something that is not JSON-RPC', async () => {
    const { agent, serverId } = await agentCalling((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('event: message\ndata: {"hello": "world"}\n\n');
    });
    const correlationId = randomUUID();

    const refusal = await callTool(agent, serverId, correlationId);

    expect(refusal.rpcCode).toBe(-31010);
    expect(refusal.message).toContain('not a JSON-RPC message');
  });

  it('should answer 504 naming the server when it does not answer within its timeout', async () => {
    const { agent, serverId } = await agentCalling(() => undefined, { timeoutMs: 300 });
    const correlationId = randomUUID();

    const refusal = await callTool(agent, serverId, correlationId);

    expect(refusal.httpStatus).toBe(504);
    expect((await errorHop(correlationId)).decision).toMatchObject({
      reasons: [expect.stringContaining('did not answer within 300 ms')],
    });
  });
});
