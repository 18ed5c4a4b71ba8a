import { randomUUID } from 'node:crypto';

import { Pool } from 'undici';

/**
 * A2A `SendMessage` (protocol 1.0, as the official SDK sends it) over plain HTTP: the load
 * generator must cost less than what it measures, so no SDK client objects per call.
 */
export class A2aSendClient {
  private readonly pool: Pool;
  private nextId = 1;

  constructor(
    private readonly url: URL,
    private readonly token?: string,
    connections = 64,
  ) {
    this.pool = new Pool(url.origin, {
      connections,
      pipelining: 1,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  /** One message/send answered with a completed task; throws unless the answer is a result. */
  async send(text: string): Promise<void> {
    const response = await this.pool.request({
      path: this.url.pathname,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'a2a-version': '1.0',
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: this.nextId++,
        method: 'SendMessage',
        params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
      }),
    });
    const body = await response.body.text();
    if (!body.includes('"result"')) {
      throw new Error(`SendMessage failed: ${response.statusCode} ${body.slice(0, 300)}`);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
