import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolResult,
  CallToolResultSchema,
  McpError,
  ResultSchema,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';

import { ApiError, McpJsonRpcError, McpNotSubscribedError } from '../errors';
import { readBody } from '../auth/token-provider';
import { CORRELATION_HEADER } from '../http/correlation';
import { FetchLike } from '../http/governed-fetch';

export interface McpRelayClientOptions {
  clientInfo?: { name: string; version: string };
  /** One correlation id for every message of this client, so its calls form one trace (D13). */
  correlationId?: string;
  forwardCorrelationId?: boolean;
  /** How long one MCP request may take, retries included; the SDK's own 60 s otherwise (S14). */
  requestTimeoutMs?: number;
}

export type { CallToolResult, Tool };

/**
 * An MCP client for one server through the relay's Streamable HTTP path (D20), built on the
 * official SDK's Client.
 */
export class McpRelayClient {
  private client?: Client;
  private transport?: StreamableHTTPClientTransport;
  private connecting?: Promise<Client>;

  constructor(
    readonly url: string,
    readonly mcpServerId: string,
    private readonly governedFetch: FetchLike,
    private readonly options: McpRelayClientOptions = {},
  ) {}

  async listTools(): Promise<Tool[]> {
    const client = await this.connected();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.mapErrors(() =>
        client.listTools(cursor ? { cursor } : undefined, this.requestOptions()),
      );
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    const client = await this.connected();
    return this.mapErrors(
      async () =>
        (await client.callTool(
          { name, arguments: args },
          CallToolResultSchema,
          this.requestOptions(),
        )) as CallToolResult,
    );
  }

  async request(
    method: string,
    params?: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const client = await this.connected();
    return this.mapErrors(() =>
      client.request(
        { method, ...(params ? { params } : {}) },
        ResultSchema,
        this.requestOptions(),
      ),
    );
  }

  /** The session's MCP server info, once connected. */
  async serverVersion(): Promise<{ name: string; version: string } | undefined> {
    return (await this.connected()).getServerVersion();
  }

  async close(): Promise<void> {
    const [client, transport] = [this.client, this.transport];
    this.client = undefined;
    this.transport = undefined;
    this.connecting = undefined;
    await transport?.terminateSession().catch(() => undefined);
    await client?.close();
  }

  private connected(): Promise<Client> {
    this.connecting ??= this.connect().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  private async connect(): Promise<Client> {
    const client = new Client(
      this.options.clientInfo ?? { name: 'agp-agent-sdk', version: '0.1.0' },
    );
    const headers = this.options.correlationId
      ? { [CORRELATION_HEADER]: this.options.correlationId }
      : undefined;
    const transport = new StreamableHTTPClientTransport(new URL(this.url), {
      fetch: (input, init) => this.refusalsAsErrors(input, init),
      ...(headers ? { requestInit: { headers } } : {}),
    });
    await this.mapErrors(() => client.connect(transport, this.requestOptions()));
    this.client = client;
    this.transport = transport;
    return client;
  }

  private requestOptions(): RequestOptions | undefined {
    const timeout = this.options.requestTimeoutMs;
    return timeout ? { timeout } : undefined;
  }

  private async refusalsAsErrors(input: string | URL, init?: RequestInit): Promise<Response> {
    const response = await this.governedFetch(input, init);
    if (response.ok || (init?.method ?? 'GET') !== 'POST') {
      return response;
    }
    const body = await readBody(response);
    if (response.status === 403) {
      throw new McpNotSubscribedError(this.mcpServerId, body);
    }
    const detail =
      body && typeof body === 'object' && 'detail' in body ? `: ${String(body.detail)}` : '';
    throw new ApiError(
      `MCP ${this.url} answered ${response.status}${detail}`,
      response.status,
      body,
    );
  }

  private async mapErrors<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof McpError) {
        throw new McpJsonRpcError(error.message, error.code, error.data);
      }
      throw error;
    }
  }
}
