import { createHmac } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';

/** A `chat.postMessage` call as Slack's Web API received it. */
export interface SlackPost {
  channel: string;
  text: string;
  thread_ts?: string;
  authorization?: string;
  /** Slack's message metadata, as `chat.postMessage` takes it (`event_type`, `event_payload`). */
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
}

/**
 * A local stand-in for Slack's Web API, speaking it as Slack does: `POST /api/chat.postMessage`
 * with a bot token and a JSON body; HTTP 200 with `{"ok": true, "channel", "ts", "message"}`, or
 * `{"ok": false, "error": "invalid_auth" | "channel_not_found" | "invalid_arguments"}` (Slack answers
 * its errors with HTTP 200 too); `GET /api/users.info?user=…` answers a member's profile email.
 */
export class SlackStandIn {
  readonly posts: SlackPost[] = [];
  /** Members' profile emails, as `users.info` answers them (the app's `users:read.email` scope). */
  readonly emails = new Map<string, string>();
  /** `http://127.0.0.1:<port>/api`, the channel's `apiBaseUrl`. */
  apiBaseUrl = '';
  private readonly server: Server = createServer(
    (request, response) => void this.handle(request, response),
  );

  private constructor(private readonly botToken: string) {}

  static async start(botToken: string): Promise<SlackStandIn> {
    const standIn = new SlackStandIn(botToken);
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
    standIn.apiBaseUrl = `http://127.0.0.1:${(standIn.server.address() as AddressInfo).port}/api`;
    return standIn;
  }

  postsMentioning(marker: string): SlackPost[] {
    return this.posts.filter((post) => post.text.includes(marker));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) {
      chunks.push(chunk as Buffer);
    }
    const answer = (body: unknown): void => {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && request.url?.startsWith('/api/users.info?')) {
      const member = new URL(request.url, 'http://slack').searchParams.get('user') ?? '';
      const email = this.emails.get(member);
      if (request.headers.authorization !== `Bearer ${this.botToken}`) {
        answer({ ok: false, error: 'invalid_auth' });
      } else if (!email) {
        answer({ ok: false, error: 'user_not_found' });
      } else {
        answer({ ok: true, user: { id: member, profile: { email } } });
      }
      return;
    }
    if (request.method !== 'POST' || request.url !== '/api/chat.postMessage') {
      answer({ ok: false, error: 'unknown_method' });
      return;
    }
    if (request.headers.authorization !== `Bearer ${this.botToken}`) {
      answer({ ok: false, error: 'invalid_auth' });
      return;
    }
    if (!String(request.headers['content-type']).startsWith('application/json')) {
      answer({ ok: false, error: 'invalid_arguments' });
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<SlackPost>;
    if (typeof body.channel !== 'string' || typeof body.text !== 'string') {
      answer({ ok: false, error: body.channel ? 'no_text' : 'channel_not_found' });
      return;
    }
    this.posts.push({
      channel: body.channel,
      text: body.text,
      ...(body.thread_ts ? { thread_ts: body.thread_ts } : {}),
      authorization: request.headers.authorization,
      ...(body.metadata ? { metadata: body.metadata } : {}),
    });
    const ts = `${Math.floor(Date.now() / 1000)}.${String(this.posts.length).padStart(6, '0')}`;
    answer({
      ok: true,
      channel: body.channel,
      ts,
      message: {
        type: 'message',
        text: body.text,
        bot_id: 'B0STANDIN',
        ts,
        thread_ts: body.thread_ts,
      },
    });
  }
}

/** An Events API request as Slack sends it: the body and its signature headers. */
export function slackRequest(
  signingSecret: string,
  body: unknown,
  options: { timestamp?: number; retryNum?: number } = {},
): { body: string; headers: Record<string, string> } {
  const text = JSON.stringify(body);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', signingSecret)
    .update(`v0:${timestamp}:${text}`)
    .digest('hex');
  return {
    body: text,
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': `v0=${signature}`,
      ...(options.retryNum !== undefined
        ? { 'x-slack-retry-num': String(options.retryNum), 'x-slack-retry-reason': 'http_timeout' }
        : {}),
    },
  };
}

/** An `event_callback` carrying a person's message in a channel, as Slack's Events API sends it. */
export function slackMessageEvent(
  eventId: string,
  text: string,
  ts = `${Date.now() / 1000}`,
): unknown {
  return {
    token: 'deprecated-verification-token',
    team_id: 'T0TEAM',
    api_app_id: 'A0APP',
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    event: {
      type: 'message',
      channel: 'C0SUPPORT',
      user: 'U0PERSON',
      text,
      ts,
      channel_type: 'channel',
    },
  };
}
