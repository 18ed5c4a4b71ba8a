import { randomBytes } from 'node:crypto';

import { Pool } from 'undici';

import { summarize, Measurement } from '../measure';

const MODERN_REVISION = '2026-07-28';
const MODERN_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'agp-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** An MCP session over plain HTTP (the load generator must cost less than what it measures). */
export class McpSessionClient {
  private readonly pool: Pool;
  private sessionId = '';
  protected nextId = 1;

  constructor(
    protected readonly url: URL,
    protected readonly token?: string,
    connections = 64,
    /** D46: each request as an instrumented agent sends it, under a new sampled `traceparent`. */
    private readonly isTraced = false,
  ) {
    this.pool = new Pool(url.origin, {
      connections,
      pipelining: 1,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  async initialize(): Promise<void> {
    const answer = await this.post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'agp-bench', version: '1.0.0' },
      },
    });
    const sessionId = answer.headers['mcp-session-id'];
    this.sessionId = typeof sessionId === 'string' ? sessionId : '';
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // As an agent does before calling: the relay then checks each call against the listed
    // inputSchema (GR21), so the rows measure a checked call.
    await this.post({ jsonrpc: '2.0', id: this.nextId++, method: 'tools/list' });
  }

  /** One tools/call; throws unless the answer is a result. */
  async callTool(name: string, args: Record<string, unknown>): Promise<void> {
    const id = this.nextId++;
    const answer = await this.post({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    if (!answer.body.includes('"result"')) {
      throw new Error(`tools/call failed: ${answer.status} ${answer.body.slice(0, 300)}`);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /** A 2026-07-28 request: `Mcp-Method`/`Mcp-Name` headers, the envelope in `_meta`. */
  protected async postModern(
    method: string,
    params: Record<string, unknown>,
    name?: string,
  ): Promise<string> {
    const response = await this.pool.request({
      path: this.url.pathname,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN_REVISION,
        'mcp-method': method,
        ...(name ? { 'mcp-name': name } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: this.nextId++,
        method,
        params: { ...params, _meta: MODERN_ENVELOPE },
      }),
    });
    return response.body.text();
  }

  private async post(
    message: unknown,
  ): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
    const response = await this.pool.request({
      path: this.url.pathname,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(this.isTraced ? { traceparent: newTraceparent() } : {}),
      },
      body: JSON.stringify(message),
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: await response.body.text(),
    };
  }
}

function newTraceparent(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}

/**
 * Calls started at a fixed rate whatever the answers do (open loop): each latency runs from the
 * moment its call was due, so a stall shows in the percentiles instead of slowing the load. A call
 * that resolves with a time (`process.hrtime.bigint()`, a stream's first token) ends its latency
 * there instead of at its end.
 */
export async function fixedRate(
  label: string,
  perSecond: number,
  seconds: number,
  call: () => Promise<void | bigint>,
): Promise<Measurement> {
  const total = Math.round(perSecond * seconds);
  const intervalNs = 1e9 / perSecond;
  const latencies: number[] = [];
  const start = process.hrtime.bigint();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i += 1) {
    const due = start + BigInt(Math.round(i * intervalNs));
    const wait = Number(due - process.hrtime.bigint()) / 1e6;
    if (wait > 1) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    inFlight.push(
      call().then((at) => {
        latencies.push(Number((at ?? process.hrtime.bigint()) - due) / 1000);
      }),
    );
  }
  await Promise.all(inFlight);
  return summarize(label, latencies, Number(process.hrtime.bigint() - start) / 1e9);
}

/** D52: the same calls through a virtual server, each tool under its member's prefix. */
export class PrefixedMcpClient extends McpSessionClient {
  constructor(
    url: URL,
    token: string,
    private readonly prefix: string,
  ) {
    super(url, token);
  }

  override callTool(name: string, args: Record<string, unknown>): Promise<void> {
    return super.callTool(`${this.prefix}__${name}`, args);
  }
}

/** 2026-07-28 (issue 35): every request stands alone, its envelope in `_meta`, no session. */
export class McpStatelessClient extends McpSessionClient {
  override async initialize(): Promise<void> {
    // As an agent does before calling: the relay then checks each call against the listed schema.
    await this.postModern('tools/list', {});
  }

  override async callTool(name: string, args: Record<string, unknown>): Promise<void> {
    const answer = await this.postModern('tools/call', { name, arguments: args }, name);
    if (!answer.includes('"result"')) {
      throw new Error(`tools/call failed: ${answer.slice(0, 300)}`);
    }
  }
}
