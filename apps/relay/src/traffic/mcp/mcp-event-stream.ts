import { EventSourceMessage, createParser } from 'eventsource-parser';

import { JsonRpcId, JsonRpcMessage, invalidMessage, kindOf } from './json-rpc';
import { McpCall } from './mcp-call';
import { McpHops } from './mcp-hops';
import { AskedFor } from './mcp-messages';
import { MAX_UPSTREAM_MESSAGE_BYTES } from './mcp-upstream';
import { SseWriter } from '../pipeline/sse-writer';

/** The server sent something that is not MCP (T6): the stream ends, the agent is told why. */
export class GarbledStream extends Error {}

export interface EventStreamContext {
  call: McpCall;
  hops: McpHops;
  writer: SseWriter;
  /** The agent's requests of this exchange still unanswered, with what each asked for. */
  pending: Map<JsonRpcId, AskedFor>;
  /** The relay's answer to a server request it refused on the agent's behalf, sent upstream. */
  answerServer(answer: JsonRpcMessage): void;
  /** Why the stream must stop now (a kill switch, a withdrawn subscription), if it must. */
  stopReason(): Promise<string | undefined>;
  refuseStopped(messages: JsonRpcMessage[], reason: string): Promise<void>;
}

/**
 * D33, issue 11 § 6: each event judged before it is written; the next chunk is read only after,
 * so a slow agent slows the read instead of filling memory.
 */
export async function relayEventStream(
  body: AsyncIterable<Buffer | string>,
  context: EventStreamContext,
): Promise<string | undefined> {
  const events: EventSourceMessage[] = [];
  let retry: number | undefined;
  const parser = createParser({
    onEvent: (event) => events.push(event),
    onRetry: (value) => {
      retry = value;
    },
  });
  const decoder = new TextDecoder();
  let buffered = 0;
  for await (const chunk of body) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    buffered += text.length;
    if (buffered > MAX_UPSTREAM_MESSAGE_BYTES) {
      throw new GarbledStream(`an event larger than ${MAX_UPSTREAM_MESSAGE_BYTES} bytes`);
    }
    parser.feed(text);
    if (retry !== undefined) {
      await context.writer.passThrough({ retry });
      retry = undefined;
    }
    while (events.length > 0) {
      buffered = 0;
      const stop = await relayEvent(events.shift()!, context);
      if (stop) {
        return stop;
      }
    }
    if (context.writer.isClosed) {
      return 'the agent went away';
    }
  }
  return undefined;
}

async function relayEvent(
  event: EventSourceMessage,
  context: EventStreamContext,
): Promise<string | undefined> {
  if (event.data.length === 0) {
    await context.writer.passThrough({ id: event.id });
    return undefined;
  }
  const messages = parseEventData(event.data);
  const stop = await context.stopReason();
  if (stop) {
    await context.refuseStopped(messages, stop);
    return stop;
  }
  for (const message of messages) {
    const kind = kindOf(message);
    const id = message.id ?? undefined;
    const askedFor = kind === 'response' && id !== undefined ? context.pending.get(id) : undefined;
    if (askedFor && id !== undefined) {
      context.pending.delete(id);
    }
    const judged = await context.hops.judgeFromServer(context.call, message, askedFor);
    await judged.audited;
    if (judged.forward) {
      await context.writer.message(judged.forward, event.id);
    }
    if (judged.answer) {
      context.answerServer(judged.answer);
    }
  }
  return undefined;
}

function parseEventData(data: string): JsonRpcMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new GarbledStream('an event whose data is not JSON');
  }
  const values = Array.isArray(value) ? value : [value];
  for (const item of values) {
    const why = invalidMessage(item);
    if (why) {
      throw new GarbledStream(`an event that is not a JSON-RPC message (${why})`);
    }
  }
  return values as JsonRpcMessage[];
}
