import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server as HttpServer, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

import { McpServer as LegacyMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  McpServer as ModernMcpServer,
  acceptedContent,
  createMcpHandler,
  inputRequired,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

/** A server of one MCP revision, with the tools both have (issue 35 item 1's interop tests). */
export interface RevisionServer {
  url: string;
  /** Adds a tool `added_<n>` and tells listening clients that the tool list changed. */
  addTool(): void;
  /** Tells clients subscribed to `uri` that it changed (`notifications/resources/updated`). */
  touch(uri: string): void;
  /** How often `act_then_ask` ran (2025-11-25 only): a replayed call would run it twice. */
  executions(): number;
  /** The sessions open on the server (2025-11-25 only; a 2026-07-28 server keeps none). */
  openSessions(): number;
  close(): Promise<void>;
}

const CONFIRM = z.object({ confirm: z.boolean() });
/** The resource both servers offer, to which clients subscribe. */
export const DOC_URI = 'test://doc';

interface LevelFilter {
  isMessageIgnored(level: string, sessionId?: string): boolean;
}
const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const } },
  required: ['confirm'],
};

/** 2025-11-25 only: the official 1.x SDK with sessions (initialize, GET stream, server requests). */
export async function startLegacyServer(): Promise<RevisionServer> {
  const sessions = new Map<
    string,
    { transport: StreamableHTTPServerTransport; server: LegacyMcpServer; uris: Set<string> }
  >();
  let added = 0;
  let executions = 0;
  const build = (uris: Set<string>): LegacyMcpServer => {
    const server = new LegacyMcpServer(
      { name: 'legacy-tools', version: '1.0.0' },
      { capabilities: { logging: {}, resources: { subscribe: true } } },
    );
    server.registerResource('doc', DOC_URI, { description: 'A document' }, (uri) => ({
      contents: [{ uri: uri.href, text: 'doc' }],
    }));
    server.server.setRequestHandler(SubscribeRequestSchema, ({ params }) => {
      uris.add(params.uri);
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, ({ params }) => {
      uris.delete(params.uri);
      return {};
    });
    server.registerTool('log', { description: 'Logs twice' }, async (extra) => {
      // On the call's own stream, at the level the session set (the SDK's own filter).
      const ignored = (server.server as unknown as LevelFilter).isMessageIgnored;
      for (const level of ['debug', 'warning'] as const) {
        if (!ignored(level, extra.sessionId)) {
          await extra.sendNotification({
            method: 'notifications/message',
            params: { level, data: `${level} line` },
          });
        }
      }
      return { content: [{ type: 'text', text: 'logged' }] };
    });
    server.registerTool(
      'act_then_ask',
      { description: 'Acts, then asks', inputSchema: { what: z.string() } },
      async ({ what }, extra) => {
        // The side effect comes first: issue 35's "a tool that acts before asking".
        executions++;
        const answer = await server.server.elicitInput(
          { message: `Keep ${what}?`, requestedSchema: CONFIRM_SCHEMA },
          { relatedRequestId: extra.requestId },
        );
        const kept = answer.action === 'accept' && answer.content?.confirm === true;
        return { content: [{ type: 'text', text: `${what}: ${kept ? 'kept' : 'undone'}` }] };
      },
    );
    server.registerTool(
      'greet',
      { description: 'Greets', inputSchema: { name: z.string() } },
      ({ name }) => ({
        content: [{ type: 'text', text: `Hello, ${name}! (2025-11-25)` }],
      }),
    );
    server.registerTool(
      'confirm',
      { description: 'Asks first', inputSchema: { what: z.string() } },
      async ({ what }, extra) => {
        // On the call's own stream (related), as a tool asks in the middle of a call.
        const answer = await server.server.elicitInput(
          {
            message: `Really ${what}?`,
            requestedSchema: {
              type: 'object',
              properties: { confirm: { type: 'boolean' } },
              required: ['confirm'],
            },
          },
          { relatedRequestId: extra.requestId },
        );
        const yes = answer.action === 'accept' && answer.content?.confirm === true;
        return { content: [{ type: 'text', text: yes ? `${what}: done` : `${what}: declined` }] };
      },
    );
    for (let n = 1; n <= added; n++) {
      addedTool(server, n);
    }
    return server;
  };
  const http = createServer((req, res) => {
    void (async () => {
      const body = req.method === 'POST' ? JSON.parse((await readBody(req)) || 'null') : undefined;
      const sessionId = req.headers['mcp-session-id'];
      const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (known) {
        await known.transport.handleRequest(req, res, body);
        return;
      }
      if (req.method !== 'POST' || (body as { method?: string } | null)?.method !== 'initialize') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
          }),
        );
        return;
      }
      const uris = new Set<string>();
      const server = build(uris);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { transport, server, uris }),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500).end(String(error));
      }
    });
  });
  const url = await listen(http);
  return {
    url,
    executions: () => executions,
    openSessions: () => sessions.size,
    touch: (uri) => {
      for (const session of sessions.values()) {
        if (session.uris.has(uri)) {
          void session.server.server.sendResourceUpdated({ uri });
        }
      }
    },
    addTool: () => {
      added++;
      for (const { server } of sessions.values()) {
        addedTool(server, added);
      }
    },
    close: async () => {
      await Promise.all([...sessions.values()].map((s) => s.transport.close()));
      await closeHttp(http);
    },
  };
}

/** 2026-07-28 only: the official v2 SDK, stateless, `legacy: 'reject'` (no initialize at all). */
export async function startModernServer(): Promise<RevisionServer> {
  let added = 0;
  const handler = createMcpHandler(
    () => {
      const server = new ModernMcpServer(
        { name: 'modern-tools', version: '2.0.0' },
        {
          capabilities: {
            tools: { listChanged: true },
            logging: {},
            resources: { subscribe: true, listChanged: true },
          },
        },
      );
      server.registerResource('doc', DOC_URI, { description: 'A document' }, (uri) => ({
        contents: [{ uri: uri.href, text: 'doc' }],
      }));
      server.registerTool('log', { description: 'Logs twice' }, async (ctx) => {
        // The SDK sends each at the request's `_meta` log level, none without one.
        await ctx.mcpReq.log('debug', 'debug line');
        await ctx.mcpReq.log('warning', 'warning line');
        return { content: [{ type: 'text', text: 'logged' }] };
      });
      server.registerTool(
        'greet',
        { description: 'Greets', inputSchema: z.object({ name: z.string() }) },
        ({ name }) => ({
          content: [{ type: 'text', text: `Hello, ${name}! (2026-07-28)` }],
        }),
      );
      server.registerTool(
        'confirm',
        { description: 'Asks first', inputSchema: z.object({ what: z.string() }) },
        ({ what }, ctx) => {
          const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', CONFIRM);
          if (answer === undefined) {
            return inputRequired({
              inputRequests: {
                confirm: inputRequired.elicit({
                  message: `Really ${what}?`,
                  requestedSchema: CONFIRM,
                }),
              },
            });
          }
          return {
            content: [
              { type: 'text', text: answer.confirm ? `${what}: done` : `${what}: declined` },
            ],
          };
        },
      );
      for (let n = 1; n <= added; n++) {
        addedTool(server, n);
      }
      return server;
    },
    { legacy: 'reject' },
  );
  const http = createServer((req, res) => {
    void serveFetch(handler.fetch, req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500).end(String(error));
      }
    });
  });
  const url = await listen(http);
  return {
    url,
    executions: () => 0,
    openSessions: () => 0,
    touch: (uri) => handler.notify.resourceUpdated(uri),
    addTool: () => {
      added++;
      handler.notify.toolsChanged();
    },
    close: async () => {
      await handler.close();
      await closeHttp(http);
    },
  };
}

function addedTool(server: LegacyMcpServer | ModernMcpServer, n: number): void {
  (server as LegacyMcpServer).registerTool(`added_${n}`, { description: 'Added later' }, () => ({
    content: [{ type: 'text', text: 'added' }],
  }));
}

/** Node's request as the web `Request` the v2 handler takes, its `Response` streamed back. */
async function serveFetch(
  fetchHandler: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = req.method === 'POST' ? await readBody(req) : undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') {
      headers.set(name, value);
    }
  }
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const response = await fetchHandler(
    new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body,
      signal: gone.signal,
    }),
  );
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        break;
      }
      res.write(value);
    }
  } catch {
    // The client went away.
  }
  res.end();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

async function listen(http: HttpServer): Promise<string> {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

async function closeHttp(http: HttpServer): Promise<void> {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
}
