import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ServedAgent, serveAgent } from '@agp/agent-sdk/server';

import { A2aWorld } from './a2a/a2a-world';
import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';

interface Answer {
  status: number;
  contentType: string;
  body: Json;
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body: (await response.json()) as Json,
  };
}

/** What a client reads of an answer: the status, the media type, the id and the error's code. */
function shapeOf(answer: Answer) {
  const error = answer.body.error as Json | undefined;
  return {
    status: answer.status,
    contentType: answer.contentType.split(';')[0],
    id: answer.body.id,
    code: error?.code,
  };
}

/**
 * The JSON-RPC framing cases of the A2A compatibility kit (a2a-tck, tests/mandatory/jsonrpc,
 * test_json_rpc_compliance.py), plus a batch and a response, with the code the kit, JSON-RPC 2.0
 * and A2A 1.0 § 9 expect (D61). `passThrough`: only the agent can judge it, so the relay must
 * forward it and answer exactly what the agent answers directly.
 */
const A2A_CASES: Array<[string, string, number | 'passThrough']> = [
  [
    'malformed JSON',
    '{"jsonrpc": "2.0", "method": "SendMessage", "params": {"foo": "bar"}',
    -32700,
  ],
  ['jsonrpc "aaa"', JSON.stringify({ jsonrpc: 'aaa', method: 'SendMessage', params: {} }), -32600],
  ['no method', JSON.stringify({ jsonrpc: '2.0', params: {} }), -32600],
  [
    'an object as id',
    JSON.stringify({ jsonrpc: '2.0', method: 'SendMessage', params: {}, id: { bad: 'type' } }),
    -32600,
  ],
  [
    'a batch',
    JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }]),
    -32600,
  ],
  ['a response', JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }), -32600],
  [
    'an unknown method',
    JSON.stringify({ jsonrpc: '2.0', id: '3', method: 'SendMessageXXX', params: {} }),
    'passThrough',
  ],
  [
    'invalid params',
    JSON.stringify({ jsonrpc: '2.0', id: '4', method: 'SendMessage', params: { '': 'x' } }),
    'passThrough',
  ],
];

/** What the MCP SDK's Streamable HTTP server answers itself, before any session or tool. */
const MCP_CASES: Array<[string, string]> = [
  ['malformed JSON', '{"jsonrpc": "2.0", "method": '],
  ['not JSON-RPC', JSON.stringify({ hello: 'world' })],
  ['jsonrpc "1.0"', JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'ping' })],
];

/** The MCP SDK's own server, stateless, with nothing in front: the reference for MCP_CASES. */
async function startSdkMcpServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const mcp = new McpServer({ name: 'framing', version: '1.0.0' });
    void mcp.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * D61: a body that is not JSON, or not a JSON-RPC request, is answered on the traffic paths as
 * each protocol's official server answers it — the A2A SDK's server (HTTP 200, −32700 or
 * −32600, A2A 1.0 § 9) and the MCP SDK's Streamable HTTP server (HTTP 400) — never problem+json;
 * and what only the agent can judge (a method, its params) reaches it and comes back unchanged.
 */
describe.each<PlatformMode>(['services', 'embedded'])('Traffic path framing (%s)', (mode) => {
  let platform: McpPlatform;
  let world: McpWorld;
  let a2a: A2aWorld;
  let agent: ServedAgent;
  let mcpServer: Awaited<ReturnType<typeof startSdkMcpServer>>;
  let caller: TestAgent;
  let targetId: string;
  let serverId: string;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    world = await McpWorld.create(platform);
    a2a = new A2aWorld(world);
    agent = await serveAgent({
      name: 'framing',
      host: '127.0.0.1',
      port: 0,
      respond: (text) => Promise.resolve(`echo ${text}`),
    });
    mcpServer = await startSdkMcpServer();
    caller = await world.agent();
    targetId = (await a2a.target(`${agent.url}/.well-known/agent-card.json`)).id;
    await a2a.subscribe(caller.id, targetId);
    serverId = await world.mcpServer(mcpServer.url);
    await world.subscribe(caller.id, serverId);
  });

  afterAll(async () => {
    await agent?.close();
    await mcpServer?.close();
    await platform?.close();
  });

  it.each(A2A_CASES)(
    'should answer %s on the A2A path with HTTP 200 and the JSON-RPC error A2A expects',
    async (_case, body, expected) => {
      const direct = await post(agent.url, body, { 'a2a-version': '1.0' });
      const relayed = await post(a2a.a2aUrl(targetId), body, {
        'a2a-version': '1.0',
        authorization: `Bearer ${caller.mcpToken}`,
      });

      // The SDK's 1.0 server answers every malformed request with 200 too, but −32602, where
      // JSON-RPC, A2A 1.0 § 9 and the kit say −32600; the relay answers what they say (T46).
      expect(shapeOf(relayed)).toMatchObject({
        status: direct.status,
        contentType: shapeOf(direct).contentType,
      });
      if (expected === 'passThrough') {
        expect(relayed.body).toEqual(direct.body);
      } else {
        expect(shapeOf(relayed)).toMatchObject({ status: 200, code: expected });
      }
    },
  );

  it.each(MCP_CASES)(
    'should answer %s on the MCP path as the MCP SDK server does directly',
    async (_case, body) => {
      const accept = { accept: 'application/json, text/event-stream' };
      const direct = await post(mcpServer.url, body, accept);
      const relayed = await post(world.mcpUrl(serverId), body, {
        ...accept,
        authorization: `Bearer ${caller.mcpToken}`,
      });

      expect(shapeOf(relayed)).toEqual(shapeOf(direct));
      expect(relayed.body.error).toMatchObject({
        message: (direct.body.error as Json).message,
      });
      expect(shapeOf(relayed)).toMatchObject({ status: 400, contentType: 'application/json' });
    },
  );
});
