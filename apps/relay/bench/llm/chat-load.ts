import { Pool } from 'undici';

/**
 * Chat completions over plain HTTP (the load generator must cost less than what it measures):
 * streamed, resolving with the moment the first content arrived after reading the stream to its
 * end and checking it ended with `[DONE]`; or plain, one JSON answer.
 */
export class ChatStreamClient {
  private readonly pool: Pool;
  private readonly path: string;

  constructor(
    baseUrl: string,
    private readonly token: string,
    connections = 64,
    /** Sent with every call (a peer gateway's routing headers). */
    private readonly extraHeaders: Record<string, string> = {},
  ) {
    const url = new URL(`${baseUrl.replace(/\/+$/, '')}/chat/completions`);
    this.path = url.pathname;
    this.pool = new Pool(url.origin, { connections, headersTimeout: 0, bodyTimeout: 0 });
  }

  async stream(content: string): Promise<bigint> {
    const answer = await this.post(content, true);
    if (answer.statusCode !== 200) {
      throw new Error(`chat completion answered ${answer.statusCode}: ${await answer.body.text()}`);
    }
    let firstToken: bigint | undefined;
    let tail = '';
    for await (const chunk of answer.body) {
      const text = (chunk as Buffer).toString('utf8');
      firstToken ??= /"content":"[^"]/.test(text) ? process.hrtime.bigint() : undefined;
      tail = (tail + text).slice(-64);
    }
    if (!tail.includes('[DONE]') || firstToken === undefined) {
      throw new Error('the stream ended without content or without [DONE]');
    }
    return firstToken;
  }

  /** The whole completion: for closed loops, where a call is over when its stream is. */
  async complete(content: string): Promise<void> {
    await this.stream(content);
  }

  /** One completion not streamed: the answer is one JSON document. */
  async plain(content: string): Promise<void> {
    const answer = await this.post(content, false);
    const body = await answer.body.text();
    if (answer.statusCode !== 200 || !body.includes('"choices"')) {
      throw new Error(`chat completion answered ${answer.statusCode}: ${body.slice(0, 300)}`);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private post(content: string, stream: boolean): ReturnType<Pool['request']> {
    return this.pool.request({
      method: 'POST',
      path: this.path,
      headers: {
        ...this.extraHeaders,
        authorization: `Bearer ${this.token}`,
        'content-type': 'application/json',
        accept: stream ? 'text/event-stream' : 'application/json',
      },
      body: JSON.stringify({
        model: 'bench-model',
        stream,
        messages: [{ role: 'user', content }],
      }),
    });
  }
}
