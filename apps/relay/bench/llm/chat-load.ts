import { Pool } from 'undici';

/**
 * Streamed chat completions over plain HTTP (the load generator must cost less than what it
 * measures): resolves with the moment the first content arrived, after reading the stream to its
 * end and checking it ended with `[DONE]`.
 */
export class ChatStreamClient {
  private readonly pool: Pool;
  private readonly path: string;

  constructor(
    baseUrl: string,
    private readonly token: string,
    connections = 64,
  ) {
    const url = new URL(`${baseUrl.replace(/\/+$/, '')}/chat/completions`);
    this.path = url.pathname;
    this.pool = new Pool(url.origin, { connections, headersTimeout: 0, bodyTimeout: 0 });
  }

  async stream(content: string): Promise<bigint> {
    const answer = await this.pool.request({
      method: 'POST',
      path: this.path,
      headers: {
        authorization: `Bearer ${this.token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({
        model: 'bench-model',
        stream: true,
        messages: [{ role: 'user', content }],
      }),
    });
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

  close(): Promise<void> {
    return this.pool.close();
  }
}
