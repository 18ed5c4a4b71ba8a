import { SseWriter } from '../../pipeline/sse-writer';
import { JsonRpcMessage } from '../json-rpc';
import { McpCall } from '../mcp-call';
import { McpAnswer } from '../mcp-exchange';
import { McpHops } from '../mcp-hops';
import { AskedFor } from '../mcp-messages';

/** T97–T100: what a translating exchange sends the client is a RESPONSE hop like any (D33). */
export async function writeJudged(
  hops: McpHops,
  call: McpCall,
  message: JsonRpcMessage,
  writer: SseWriter,
  askedFor?: AskedFor,
): Promise<void> {
  const judged = await hops.judgeFromServer(call, message, askedFor);
  await judged.audited;
  if (judged.forward) {
    await writer.message(judged.forward);
  }
}

/** The same, as the one JSON answer of a POST. */
export async function answerJudged(
  hops: McpHops,
  call: McpCall,
  message: JsonRpcMessage,
  askedFor?: AskedFor,
): Promise<McpAnswer & { kind: 'json' | 'empty' }> {
  const judged = await hops.judgeFromServer(call, message, askedFor);
  await judged.audited;
  return judged.forward
    ? { kind: 'json', status: 200, body: judged.forward }
    : { kind: 'empty', status: 202 };
}

/** An SSE answer the client cancels by going away; `abort` ends the server's side with it. */
export function translatedStream(
  abort: AbortController,
  relay: (writer: SseWriter) => Promise<void>,
  /** payments.md PY19: x402's headers on the stream's opening. */
  headers: Record<string, string> = {},
): McpAnswer {
  return {
    kind: 'stream',
    headers,
    cancel: () => abort.abort(),
    run: async (writer) => {
      writer.open(headers);
      try {
        await relay(writer);
      } finally {
        abort.abort();
        writer.end();
      }
    },
  };
}
