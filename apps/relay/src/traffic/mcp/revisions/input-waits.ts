import { Injectable } from '@nestjs/common';

import { JsonRpcMessage } from '../json-rpc';

/**
 * T99: a 2025-era client answers the relay's own request (an input request of a 2026 server) with
 * a POST of its own; the stream that asked waits here for it. Per replica: the answer must reach
 * the replica holding the stream, as the session revision's server-initiated requests always
 * required of a stateful server (the relay's translated session routes like any sticky session).
 */
@Injectable()
export class McpInputWaits {
  private readonly waiting = new Map<string, (message: JsonRpcMessage) => void>();

  wait(id: string, timeoutMs: number, signal: AbortSignal): Promise<JsonRpcMessage | undefined> {
    return new Promise((resolve) => {
      const done = (message?: JsonRpcMessage): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', gone);
        this.waiting.delete(id);
        resolve(message);
      };
      const gone = (): void => done();
      const timer = setTimeout(gone, timeoutMs);
      signal.addEventListener('abort', gone);
      this.waiting.set(id, done);
    });
  }

  /** True when a stream was waiting for this answer. */
  answer(message: JsonRpcMessage): boolean {
    const id = message.id;
    const waiter = typeof id === 'string' ? this.waiting.get(id) : undefined;
    waiter?.(message);
    return waiter !== undefined;
  }
}
