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

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookStandIn> {
    let standIn: WebhookStandIn | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        try {
          const payload = new Webhook(standIn!.secret!).verify(
            body,
            request.headers as Record<string, string>,
          );
          standIn!.verified.push(payload as Record<string, unknown>);
          response.writeHead(204).end();
        } catch (error) {
          standIn!.refused.push((error as Error).message);
          response.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    standIn = new WebhookStandIn(server, `http://127.0.0.1:${port}/agent-replies`);
    return standIn;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
