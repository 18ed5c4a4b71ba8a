import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  authorization?: string;
}

type Fault = { kind: 'status'; status: number } | { kind: 'drop' };

/**
 * A server that fails on purpose in front of the real platform: it forwards every request to
 * `target`, except the next faults queued for a path, which it answers with a status or by
 * dropping the connection (a network failure). It records every request it receives, so a test
 * counts the client's attempts.
 */
export class FaultyProxy {
  readonly requests: ProxiedRequest[] = [];
  private readonly faults = new Map<string, Fault[]>();
  private server?: Server;

  constructor(private readonly target: string) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.serve(request, response).catch(() => response.destroy());
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** The next `count` requests whose path starts with `pathPrefix` get `status` (or are dropped). */
  fail(pathPrefix: string, count: number, fault: number | 'drop'): void {
    const queue = this.faults.get(pathPrefix) ?? [];
    for (let i = 0; i < count; i++) {
      queue.push(fault === 'drop' ? { kind: 'drop' } : { kind: 'status', status: fault });
    }
    this.faults.set(pathPrefix, queue);
  }

  /** Requests received for paths starting with `pathPrefix`. */
  count(pathPrefix: string): number {
    return this.requests.filter((r) => r.path.startsWith(pathPrefix)).length;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private nextFault(path: string): Fault | undefined {
    for (const [prefix, queue] of this.faults) {
      if (path.startsWith(prefix) && queue.length > 0) {
        return queue.shift();
      }
    }
    return undefined;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url ?? '/';
    this.requests.push({
      method: request.method ?? 'GET',
      path,
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    });
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) {
      chunks.push(chunk);
    }
    const fault = this.nextFault(path);
    if (fault?.kind === 'drop') {
      request.socket.destroy();
      return;
    }
    if (fault) {
      response.writeHead(fault.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: fault.status, title: 'failing on purpose' }));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) {
        headers.set(name, value);
      }
    }
    const upstream = await fetch(`${this.target}${path}`, {
      method: request.method,
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const answer = Buffer.from(await upstream.arrayBuffer());
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (
        !['content-encoding', 'transfer-encoding', 'content-length', 'connection'].includes(name)
      ) {
        out[name] = value;
      }
    });
    response.writeHead(upstream.status, out);
    response.end(answer);
  }
}
