import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

/** What the server received for one `tools/call`, as its tool saw it (after the relay). */
import {
  McpTestCatalogue,
  McpTestServer,
  McpTestServerOptions,
  QuoteTools,
  ReceivedToolCall,
  buildServer,
} from './mcp-test-tools';

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  return raw.length > 0 ? (JSON.parse(raw) as unknown) : undefined;
}

function plain(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function handleStateless(
  request: IncomingMessage,
  response: ServerResponse,
  record: (call: ReceivedToolCall) => void,
  jsonResponse: boolean,
  extraTools: McpTestServerOptions['extraTools'],
  catalogue: McpTestCatalogue | undefined,
): Promise<void> {
  if (request.method !== 'POST') {
    return plain(response, 405, 'method not allowed');
  }
  const body = await readJson(request);
  const server = buildServer(record, extraTools, false, catalogue);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: jsonResponse,
  });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
}

/** Its tools cover what the relay must carry. */
export async function startMcpTestServer(
  options: McpTestServerOptions = {},
): Promise<McpTestServer> {
  const calls: ReceivedToolCall[] = [];
  const record =
    options.record === false ? () => undefined : (c: ReceivedToolCall) => calls.push(c);
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const quote: QuoteTools = { min: 1, registered: new Set() };

  let requests = 0;
  let toolLists = 0;
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    requests += 1;
    if (!request.url?.startsWith('/mcp')) {
      return plain(response, 404, 'not found');
    }
    if (options.stateless) {
      return handleStateless(
        request,
        response,
        record,
        options.jsonResponse ?? false,
        options.extraTools,
        options.catalogue,
      );
    }
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (existing) {
      const body = request.method === 'POST' ? await readJson(request) : undefined;
      if ((body as { method?: unknown } | undefined)?.method === 'tools/list') {
        toolLists += 1;
      }
      return existing.handleRequest(request, response, body);
    }
    if (request.method !== 'POST' || sessionId !== undefined) {
      return plain(response, sessionId === undefined ? 400 : 404, 'no such session');
    }
    const body = await readJson(request);
    if (!isInitializeRequest(body)) {
      return plain(response, 400, 'first request of a session must be initialize');
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: options.jsonResponse ?? false,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) {
        transports.delete(transport.sessionId);
      }
    };
    await buildServer(
      record,
      options.extraTools,
      options.structuredTool,
      options.catalogue,
      quote,
    ).connect(transport);
    await transport.handleRequest(request, response, body);
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        plain(response, 500, error instanceof Error ? error.message : String(error));
      } else {
        response.destroy();
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    sessions: () => transports.size,
    requestCount: () => requests,
    setQuoteMinimum: (min) => {
      quote.min = min;
      for (const registered of quote.registered) {
        registered.update({ paramsSchema: { sku: z.string(), qty: z.number().int().min(min) } });
      }
    },
    toolLists: () => toolLists,
    dropSessions: async () => {
      for (const transport of [...transports.values()]) {
        await transport.close();
      }
    },
    close: async () => {
      for (const transport of [...transports.values()]) {
        await transport.close();
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
