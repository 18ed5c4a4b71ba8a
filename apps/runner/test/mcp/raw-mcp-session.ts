import { Json } from './mcp-world';

/**
 * An MCP session driven by hand, for what the SDK client cannot do: send one request with a header
 * of its own (D34's `X-Agp-Hitl-Request-Id`). Reads a JSON or an SSE answer alike.
 */
export class RawMcpSession {
  private sessionId = '';
  private nextId = 1000;

  private constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  static async open(url: string, token: string): Promise<RawMcpSession> {
    const session = new RawMcpSession(url, token);
    const answer = await session.post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    });
    session.sessionId = answer.headers.get('mcp-session-id') ?? '';
    await session.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return session;
  }

  /** tools/call; the JSON-RPC answer (result or error), and the HTTP status. */
  async callTool(
    name: string,
    args: Json,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; message?: Json }> {
    const answer = await this.post(
      {
        jsonrpc: '2.0',
        id: this.nextId++,
        method: 'tools/call',
        params: { name, arguments: args },
      },
      headers,
    );
    const text = await answer.text();
    const data = answer.headers.get('content-type')?.startsWith('text/event-stream')
      ? text
          .split('\n')
          .filter((line) => line.startsWith('data: ') && line.length > 6)
          .map((line) => line.slice(6))
          .pop()
      : text;
    return { status: answer.status, ...(data ? { message: JSON.parse(data) as Json } : {}) };
  }

  private post(message: Json, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(this.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}),
        ...headers,
      },
      body: JSON.stringify(message),
    });
  }
}
