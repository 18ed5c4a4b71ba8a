import { IncomingMessage, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';

/**
 * Issue 35's bench row: an MCP server that speaks only 2026-07-28 (the official v2 SDK, stateless
 * requests with `_meta`, no sessions), with the `echo` tool of the 2025 test server.
 */
export async function startModernToolsServer(): Promise<{ url: string; close(): Promise<void> }> {
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: 'bench-modern-tools', version: '2.0.0' });
      server.registerTool(
        'echo',
        { description: 'Echoes its text', inputSchema: z.object({ text: z.string() }) },
        ({ text }) => ({ content: [{ type: 'text', text }] }),
      );
      return server;
    },
    { legacy: 'reject' },
  );
  const http = createServer((req, res) => {
    void serve(handler.fetch, req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}

/** Node's request as a fetch `Request` for the SDK's handler, its `Response` written back. */
async function serve(
  fetchHandler: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    chunks.push(chunk as Buffer);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') {
      headers.set(name, value);
    }
  }
  const response = await fetchHandler(
    new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
    }),
  );
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}
