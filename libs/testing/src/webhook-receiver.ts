import { createHmac, timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders, Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/** One request a receiver got, with its body as the exact bytes sent. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: {
    id: string;
    type: string;
    occurredAt: string;
    tenantId: string;
    agentId: string;
    data: Record<string, unknown>;
  };
}

/** Agents' webhook endpoints for tests (D19). */
export class WebhookReceiver {
  private readonly received = new Map<string, ReceivedWebhook[]>();
  private readonly statuses = new Map<string, number>();
  private delayMs = 0;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const name = (request.url ?? '/').slice(1);
        const raw = Buffer.concat(chunks);
        const list = receiver.received.get(name) ?? [];
        list.push({
          headers: request.headers,
          raw,
          body: JSON.parse(raw.toString('utf8')) as ReceivedWebhook['body'],
        });
        receiver.received.set(name, list);
        const status = receiver.statuses.get(name) ?? 200;
        setTimeout(() => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ status: status < 300 ? 'ack' : 'down for the test' }));
        }, receiver.delayMs);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(name: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/${name}`;
  }

  answer(name: string, status: number): void {
    this.statuses.set(name, status);
  }

  slowDown(delayMs: number): void {
    this.delayMs = delayMs;
  }

  of(name: string): ReceivedWebhook[] {
    return this.received.get(name) ?? [];
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** The `v1=` values that `secret` matches (D19). */
export function matchingSignatures(received: ReceivedWebhook, secret: string): number[] {
  const timestamp = String(received.headers['x-svc-timestamp'] ?? '');
  const header = String(received.headers['x-svc-signature'] ?? '');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) {
    return [];
  }
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), received.raw]))
    .digest();
  return header
    .split(' ')
    .map((part, index) => ({ part, index }))
    .filter(({ part }) => {
      const hex = /^v1=([0-9a-f]{64})$/.exec(part)?.[1];
      return hex !== undefined && timingSafeEqual(Buffer.from(hex, 'hex'), expected);
    })
    .map(({ index }) => index);
}
