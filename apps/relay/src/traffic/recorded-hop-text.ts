import { MessageDirection, Protocol } from '@agp/contracts';

import { textOf } from '../decisions/apply-masks';
import { a2aText } from './a2a/a2a-messages';
import { ChatRequest, completionText, requestText } from './llm/chat-messages';
import { payloadText } from './mcp/mcp-messages';

type JsonRpc = Parameters<typeof payloadText>[0];

/** G10: the text as the live hop's path derived it, so a replay judges the same text. */
export function recordedText(
  protocol: Protocol,
  direction: MessageDirection,
  json: unknown,
): string {
  const isObject = json !== null && typeof json === 'object' && !Array.isArray(json);
  if (protocol === 'MCP' && isObject) {
    return payloadText(json as JsonRpc);
  }
  if (protocol === 'JSONRPC' && isObject) {
    return a2aText(json as Parameters<typeof a2aText>[0]);
  }
  if (protocol === 'REST' && isObject) {
    const record = json as Record<string, unknown>;
    if (direction === 'REQUEST' && Array.isArray(record.messages)) {
      return requestText(record as unknown as ChatRequest);
    }
    if (Array.isArray(record.choices)) {
      return completionText(record);
    }
  }
  return textOf(json);
}
