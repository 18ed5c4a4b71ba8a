import { AddressInfo } from 'node:net';
import { Server, createServer } from 'node:http';

import { Webhook } from 'standardwebhooks';

/**
 * A WEBHOOK channel's other end: every reply verified with the `standardwebhooks` package (an
 * implementation apart from the relay's) under the secret the channel's create answered once.
 */
export class WebhookStandIn {
  readonly verified: Array<Record<string, unknown>> = [];
  readonly refused: string[] = [];
  secret?: string;
  /** `http://127.0.0.1:<port>/agent-replies`, the channel's `url`. */
  url = '';
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const headers = request.headers as Record<string, string>;
        this.verified.push(
          new Webhook(this.secret!).verify(body, headers) as Record<string, unknown>,
        );
        response.writeHead(204).end();
      } catch (error) {
        this.refused.push((error as Error).message);
        response.writeHead(400).end();
      }
    });
  });

  static async start(): Promise<WebhookStandIn> {
    const standIn = new WebhookStandIn();
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
    standIn.url = `http://127.0.0.1:${(standIn.server.address() as AddressInfo).port}/agent-replies`;
    return standIn;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
