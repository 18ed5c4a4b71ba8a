import { EventEmitter, once } from 'node:events';

import { JsonRpcMessage } from '../mcp/json-rpc';

/** What a stream is written to: the agent's response, or a LIVE evaluation's reader (G17). */
export interface SseTarget extends EventEmitter {
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  flushHeaders(): void;
  write(chunk: string): boolean;
  end(): unknown;
}

/** Server-sent events towards the agent, with backpressure (a slow agent slows the relay's read). */
export class SseWriter {
  /** `baseHeaders`: what the HTTP layer set before the stream took the response over (D13). */
  constructor(
    private readonly raw: SseTarget,
    private readonly baseHeaders: Record<string, string> = {},
  ) {}

  get isClosed(): boolean {
    return this.raw.destroyed || this.raw.writableEnded;
  }

  open(headers: Record<string, string>): void {
    this.raw.writeHead(200, {
      ...this.baseHeaders,
      ...headers,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    this.raw.flushHeaders();
  }

  message(message: JsonRpcMessage, eventId?: string): Promise<void> {
    const id = eventId ? `id: ${eventId}\n` : '';
    return this.write(`${id}event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** An event without a JSON-RPC message (the server's priming event, a retry hint) as it came. */
  passThrough(fields: { id?: string; retry?: number }): Promise<void> {
    const lines = [
      ...(fields.retry !== undefined ? [`retry: ${fields.retry}`] : []),
      ...(fields.id !== undefined ? [`id: ${fields.id}`, 'data: '] : []),
    ];
    return lines.length > 0 ? this.write(`${lines.join('\n')}\n\n`) : Promise.resolve();
  }

  /** One `data:` event as OpenAI streams them (no event name; `[DONE]` ends a chat stream). */
  data(payload: string): Promise<void> {
    return this.write(`data: ${payload}\n\n`);
  }

  /** A comment line: keeps idle proxies (the gateway's body timeout) from closing the stream. */
  keepAlive(): Promise<void> {
    return this.write(': keep-alive\n\n');
  }

  end(): void {
    if (!this.isClosed) {
      this.raw.end();
    }
  }

  private async write(chunk: string): Promise<void> {
    if (this.isClosed) {
      return;
    }
    if (!this.raw.write(chunk)) {
      await Promise.race([once(this.raw, 'drain'), once(this.raw, 'close')]);
    }
  }
}
