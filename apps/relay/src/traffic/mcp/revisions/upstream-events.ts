import { EventSourceMessage, createParser } from 'eventsource-parser';

import { JsonRpcMessage, invalidMessage } from '../json-rpc';

/** The JSON-RPC messages of an SSE body, in order (T97: a translating exchange reads them). */
export async function* parseEventStream(
  body: AsyncIterable<Buffer | string>,
): AsyncGenerator<JsonRpcMessage> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    while (events.length > 0) {
      const data = events.shift()!.data;
      if (data.length === 0) {
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch {
        throw new Error('an event whose data is not JSON');
      }
      for (const item of Array.isArray(value) ? value : [value]) {
        const why = invalidMessage(item);
        if (why) {
          throw new Error(`an event that is not a JSON-RPC message (${why})`);
        }
        yield item as JsonRpcMessage;
      }
    }
  }
}
