import { JsonRpcMessage, kindOf } from '../json-rpc';

/** Where a 2025 server's call stream stopped: its own request, its answer, or nothing. */
export type CallStop =
  | { kind: 'input'; request: JsonRpcMessage }
  | { kind: 'final'; response: JsonRpcMessage }
  | { kind: 'closed' };

/**
 * T102: reads one turn of a 2025 call's SSE stream, each notification handed on as it comes.
 * The stream is read without the transport's body timeout (it is held while a client answers);
 * `idleMs` of silence while it is read aborts it instead.
 */
export async function readTurn(
  events: AsyncIterator<JsonRpcMessage>,
  requestId: JsonRpcMessage['id'],
  onNotification: (message: JsonRpcMessage) => Promise<void>,
  idle: { ms: number; abort: AbortController },
): Promise<CallStop> {
  for (;;) {
    const timer = setTimeout(
      () => idle.abort.abort(new Error(`the server sent nothing for ${idle.ms} ms`)),
      idle.ms,
    );
    let next: IteratorResult<JsonRpcMessage>;
    try {
      next = await events.next();
    } finally {
      clearTimeout(timer);
    }
    if (next.done) {
      return { kind: 'closed' };
    }
    const event = next.value;
    switch (kindOf(event)) {
      case 'request':
        return { kind: 'input', request: event };
      case 'notification':
        await onNotification(event);
        break;
      case 'response':
        if (event.id === requestId) {
          return { kind: 'final', response: event };
        }
    }
  }
}
