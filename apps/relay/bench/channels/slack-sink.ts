import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * Slack's side of the channel bench: `POST /api/chat.postMessage` answered `{"ok": true}` as Slack
 * does, each post resolving the waiter of the marker its text carries; `event` signs an Events API
 * message as Slack does.
 */
export class SlackSink {
  private readonly waiters = new Map<string, () => void>();
  apiBaseUrl = '';
  private readonly server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      // CH10's `users.info` (the sender's email): no member is a person of the bench tenant.
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ok: false, error: 'user_not_found' }));
        return;
      }
      const { text } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: true, channel: 'C0BENCH', ts: `${Date.now() / 1000}` }));
      const marker = /m-[0-9]+/.exec(text)?.[0];
      if (marker) {
        this.waiters.get(marker)?.();
        this.waiters.delete(marker);
      }
    });
  });

  static async start(): Promise<SlackSink> {
    const sink = new SlackSink();
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    sink.apiBaseUrl = `http://127.0.0.1:${(sink.server.address() as AddressInfo).port}/api`;
    return sink;
  }

  /** Resolves when a reply carrying `marker` is posted. */
  posted(marker: string): Promise<void> {
    return new Promise((resolve) => this.waiters.set(marker, resolve));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A person's message as Slack's Events API posts it, signed with `signingSecret`. */
export function slackEvent(
  signingSecret: string,
  text: string,
): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({
    type: 'event_callback',
    event_id: `Ev${text}${Math.random().toString(36).slice(2)}`,
    event: {
      type: 'message',
      channel: 'C0BENCH',
      user: 'U0BENCH',
      text,
      ts: `${Date.now() / 1000}`,
    },
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', signingSecret)
    .update(`v0:${timestamp}:${body}`)
    .digest('hex');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': `v0=${signature}`,
    },
  };
}
