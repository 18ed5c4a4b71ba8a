import { IncomingHttpHeaders, Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export interface SlackPost {
  headers: IncomingHttpHeaders;
  body: { channel: string; text: string; [key: string]: unknown };
}

/**
 * Slack's Web API `chat.postMessage` as Slack answers it, for a test: a bearer token in
 * `Authorization`, a JSON body with `channel` and `text`; `200 {ok: true, channel, ts, message}`
 * when the token is the bot's and the channel known, `200 {ok: false, error}` otherwise
 * (`invalid_auth`, `channel_not_found`, `no_text`), as Slack refuses with a 200.
 */
export class SlackStandIn {
  readonly posts: SlackPost[] = [];
  private sequence = 0;

  private constructor(
    private readonly server: Server,
    private readonly botToken: string,
    private readonly channels: ReadonlySet<string>,
  ) {}

  static async start(botToken: string, channels: string[]): Promise<SlackStandIn> {
    const server = createServer();
    const slack = new SlackStandIn(server, botToken, new Set(channels));
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const answer = (status: number, body: unknown): void => {
          response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
          response.end(JSON.stringify(body));
        };
        if (request.method !== 'POST' || request.url !== '/api/chat.postMessage') {
          answer(404, { ok: false, error: 'unknown_method' });
          return;
        }
        let body: SlackPost['body'];
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SlackPost['body'];
        } catch {
          answer(200, { ok: false, error: 'invalid_json' });
          return;
        }
        if (request.headers.authorization !== `Bearer ${slack.botToken}`) {
          answer(200, { ok: false, error: 'invalid_auth' });
          return;
        }
        if (!slack.channels.has(body.channel)) {
          answer(200, { ok: false, error: 'channel_not_found' });
          return;
        }
        if (!body.text) {
          answer(200, { ok: false, error: 'no_text' });
          return;
        }
        slack.posts.push({ headers: request.headers, body });
        const ts = `${Math.floor(Date.now() / 1000)}.${String(++slack.sequence).padStart(6, '0')}`;
        answer(200, {
          ok: true,
          channel: body.channel,
          ts,
          message: { type: 'message', text: body.text, ts, bot_id: 'B000TEST' },
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return slack;
  }

  /** What a target's `apiBaseUrl` is set to (Slack's is https://slack.com/api). */
  get apiBaseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
