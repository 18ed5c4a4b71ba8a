import { createHash } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';

import { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

/** What the server received for one `tools/call`, as its tool saw it (after the relay). */
export interface ReceivedToolCall {
  tool: string;
  arguments: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

export interface McpTestServerOptions {
  /** Answer each POST with one JSON body instead of an SSE stream (both are MCP Streamable HTTP). */
  jsonResponse?: boolean;
  /** Keep no record of calls (the benchmark, whose calls would otherwise pile up). */
  record?: boolean;
  // The SDK's stateless mode (`sessionIdGenerator: undefined`), as its stateless example serves it:
  // a new server and transport per POST, no `Mcp-Session-Id`, GET and DELETE answered 405.
  stateless?: boolean;
  /**
   * Further tools that echo their arguments, read each time a server is built (stateless: every
   * POST), so a test can change a tool's description between two `tools/list` answers (D51).
   */
  extraTools?: { name: string; description: string }[];
  /** Also offer `quote_order`, whose definition has an input and an output schema (GR21). */
  structuredTool?: boolean;
  /** Resources (text, read back as given) and prompts (one user message naming their argument). */
  catalogue?: McpTestCatalogue;
}

export interface McpTestCatalogue {
  resources?: { name: string; uri: string; text: string }[];
  prompts?: { name: string; description: string }[];
}

export interface McpTestServer {
  url: string;
  calls: ReceivedToolCall[];
  sessions(): number;
  /** HTTP requests received so far, of any method (a refused caller must add none). */
  requestCount(): number;
  /** Ends every session as a restart would: their next request is answered 404. */
  dropSessions(): Promise<void>;
  /**
   * `quote_order` now needs at least `min` items: every session's server updates the tool, which
   * the SDK announces with `notifications/tools/list_changed` on the session's stream (GR38).
   */
  setQuoteMinimum(min: number): void;
  /** `tools/list` requests received so far, over every session. */
  toolLists(): number;
  close(): Promise<void>;
}

export const MCP_TEST_TOOLS = [
  'echo',
  'lookup_customer',
  'get_config',
  'count_with_progress',
  'large_report',
  'summarize_with_client',
] as const;

/** An AWS-style access key id that `get_config` answers: a secrets policy blocks it on the way back. */
export const MCP_TEST_SECRET = 'AKIAIOSFODNN7EXAMPLE';

/** The customer `lookup_customer` answers: an SSN and an e-mail that masking policies catch. */
export function mcpTestCustomer(customerId: string): Record<string, string> {
  return {
    id: customerId,
    name: 'Ada Example',
    ssn: '123-45-6789',
    email: 'ada@customer.example',
    note: `customer ${customerId}, SSN 123-45-6789 on file`,
  };
}

/**
 * The deterministic text `large_report` answers, so a test can compare what arrived byte for byte
 * without the server sending its own copy.
 */
export function mcpLargeText(bytes: number): string {
  const line = 'row 0000000: the quick brown fox jumps over the lazy dog, again and again.\n';
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i += 1) {
    const next = line.replace('0000000', String(i).padStart(7, '0'));
    lines.push(next);
    size += next.length;
  }
  return lines.join('').slice(0, bytes);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function text(value: unknown): { content: [{ type: 'text'; text: string }] } {
  return {
    content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
  };
}

/** `quote_order`'s minimum, and the tool as each session's server registered it. */
export interface QuoteTools {
  min: number;
  registered: Set<RegisteredTool>;
}

/** One McpServer per session, as the SDK's stateful Streamable HTTP examples do. */
export function buildServer(
  record: (call: ReceivedToolCall) => void,
  extraTools: McpTestServerOptions['extraTools'] = [],
  structuredTool = false,
  catalogue: McpTestCatalogue = {},
  quote: QuoteTools = { min: 1, registered: new Set() },
): McpServer {
  const server = new McpServer(
    { name: 'agp-test-tools', version: '1.0.0' },
    { capabilities: { tools: {}, logging: {} } },
  );
  registerCatalogue(server, catalogue);
  const headersOf = (extra: { requestInfo?: { headers: IncomingHttpHeaders } }) =>
    extra.requestInfo?.headers ?? {};

  server.registerTool(
    'echo',
    {
      description: 'Answers its arguments as it received them.',
      inputSchema: { note: z.string().optional(), text: z.string().optional() },
    },
    (args, extra) => {
      record({ tool: 'echo', arguments: args, headers: headersOf(extra) });
      return text({ received: args });
    },
  );
  server.registerTool(
    'lookup_customer',
    {
      description: 'A customer record, with an SSN and an e-mail address in it.',
      inputSchema: { customerId: z.string() },
    },
    (args, extra) => {
      record({ tool: 'lookup_customer', arguments: args, headers: headersOf(extra) });
      return text(mcpTestCustomer(args.customerId));
    },
  );
  server.registerTool(
    'get_config',
    { description: 'The service configuration, with a cloud access key in it.' },
    (extra) => {
      record({ tool: 'get_config', arguments: {}, headers: headersOf(extra) });
      return text({ region: 'eu-west-1', accessKeyId: MCP_TEST_SECRET });
    },
  );
  server.registerTool(
    'count_with_progress',
    {
      description: 'Counts to `steps`, sending a progress notification for each step.',
      inputSchema: { steps: z.number().int().min(1).max(100) },
    },
    async (args, extra) => {
      record({ tool: 'count_with_progress', arguments: args, headers: headersOf(extra) });
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= args.steps; step += 1) {
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: args.steps, message: `step ${step}` },
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return text(`counted to ${args.steps}`);
    },
  );
  server.registerTool(
    'large_report',
    {
      description: 'A text result of `bytes` bytes (mcpLargeText).',
      inputSchema: { bytes: z.number().int().min(1).max(20_000_000) },
    },
    (args, extra) => {
      record({ tool: 'large_report', arguments: args, headers: headersOf(extra) });
      return text(mcpLargeText(args.bytes));
    },
  );
  for (const extra of extraTools) {
    server.registerTool(
      extra.name,
      { description: extra.description, inputSchema: { text: z.string().optional() } },
      (args, context) => {
        record({ tool: extra.name, arguments: args, headers: headersOf(context) });
        return text({ received: args });
      },
    );
  }
  if (structuredTool) {
    const registered = server.registerTool(
      'quote_order',
      {
        description: 'Quotes an order of `qty` items of `sku`, as structured content.',
        inputSchema: { sku: z.string(), qty: z.number().int().min(quote.min) },
        outputSchema: { total: z.number(), currency: z.string() },
      },
      (args, extra) => {
        record({ tool: 'quote_order', arguments: args, headers: headersOf(extra) });
        const quoted = { total: args.qty * 2.5, currency: 'EUR' };
        return { ...text(quoted), structuredContent: quoted };
      },
    );
    // A closed session's server ignores an update (the SDK sends only while connected).
    quote.registered.add(registered);
  }
  server.registerTool(
    'summarize_with_client',
    {
      description: "Asks the client's model (sampling/createMessage) to summarize `topic`.",
      inputSchema: { topic: z.string() },
    },
    async (args, extra) => {
      record({ tool: 'summarize_with_client', arguments: args, headers: headersOf(extra) });
      const answer = await extra.sendRequest(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [
              { role: 'user', content: { type: 'text', text: `Summarize: ${args.topic}` } },
            ],
            maxTokens: 100,
          },
        },
        CreateMessageResultSchema,
      );
      const content = answer.content;
      return text({ summary: content.type === 'text' ? content.text : `(${content.type})` });
    },
  );
  return server;
}

function registerCatalogue(server: McpServer, catalogue: McpTestCatalogue): void {
  for (const resource of catalogue.resources ?? []) {
    server.registerResource(resource.name, resource.uri, { mimeType: 'text/plain' }, (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: resource.text }],
    }));
  }
  for (const prompt of catalogue.prompts ?? []) {
    server.registerPrompt(
      prompt.name,
      { description: prompt.description, argsSchema: { topic: z.string() } },
      (args) => ({
        messages: [
          { role: 'user', content: { type: 'text', text: `${prompt.name}: ${args.topic}` } },
        ],
      }),
    );
  }
}
