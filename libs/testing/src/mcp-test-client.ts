import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

export interface McpTestClientOptions {
  /** The bearer token sent on every request (a platform `mcp:call` token through the relay). */
  token?: string;
  headers?: Record<string, string>;
  samplingAnswer?: (prompt: string) => string;
}

export interface McpTestClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  samplingPrompts: string[];
  close(): Promise<void>;
}

/**
 * The official SDK's `Client` over `StreamableHTTPClientTransport`, connected (initialize done) to
 * `url`, declaring the sampling capability so a server may ask it for a completion.
 */
export async function connectMcpClient(
  url: string,
  options: McpTestClientOptions = {},
): Promise<McpTestClient> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) {
    headers.authorization = `Bearer ${options.token}`;
  }
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client(
    { name: 'agp-test-agent', version: '1.0.0' },
    { capabilities: { sampling: {} } },
  );
  const samplingPrompts: string[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    const first = request.params.messages[0]?.content;
    const prompt = first && !Array.isArray(first) && first.type === 'text' ? first.text : '';
    samplingPrompts.push(prompt);
    return {
      role: 'assistant',
      model: 'agp-test-model',
      content: { type: 'text', text: options.samplingAnswer?.(prompt) ?? `summary of ${prompt}` },
    };
  });
  await client.connect(transport);
  return {
    client,
    transport,
    samplingPrompts,
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** The text of a tools/call result's first content item (every test tool answers one text item). */
export function toolText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  return content?.[0]?.text ?? '';
}

/** How the SDK client saw a refusal: an HTTP status (problem+json) or a JSON-RPC error. */
export interface Refusal {
  httpStatus?: number;
  rpcCode?: number;
  data?: Record<string, unknown>;
  message: string;
}

/** Awaits a call that must fail and says how; a call that succeeds fails the test. */
export async function refusalOf(call: Promise<unknown>): Promise<Refusal> {
  let answer: unknown;
  try {
    answer = await call;
  } catch (error) {
    if (error instanceof McpError) {
      return {
        rpcCode: error.code,
        data: error.data as Record<string, unknown> | undefined,
        message: error.message,
      };
    }
    if (error instanceof StreamableHTTPError) {
      return { httpStatus: error.code, message: error.message };
    }
    return { message: error instanceof Error ? error.message : String(error) };
  }
  throw new Error(`expected a refusal, got an answer: ${JSON.stringify(answer).slice(0, 500)}`);
}
