import { ConversationHop } from '@agp/contracts';

/** CV12: where an operator's message goes: the conversation's own channel thread or A2A agent. */
export type Destination =
  | { kind: 'CHANNEL_THREAD'; channelId: string; threadId: string }
  | { kind: 'A2A'; agentId: string; contextId?: string }
  /** CV13: MCP has no message a client did not ask for; nothing else can carry it either. */
  | { kind: 'NONE'; reason: string };

/**
 * The conversation's first hops say where it lives: a channel hop names its channel and thread;
 * an A2A request names the agent it went to (and the context, on it or on an answer).
 */
export function destinationOf(hops: ConversationHop[]): Destination {
  const channelHop = hops.find((h) => h.route.channelId && h.route.threadId);
  if (channelHop) {
    return {
      kind: 'CHANNEL_THREAD',
      channelId: channelHop.route.channelId,
      threadId: channelHop.route.threadId,
    };
  }
  const a2aRequest = hops.find(
    (h) =>
      h.protocol === 'JSONRPC' && h.direction === 'REQUEST' && h.sink.type === 'AGENT' && h.sink.id,
  );
  if (a2aRequest) {
    const contextId = hops.map((h) => h.route.a2aContextId).find(Boolean);
    return { kind: 'A2A', agentId: a2aRequest.sink.id!, ...(contextId ? { contextId } : {}) };
  }
  if (hops.some((h) => h.protocol === 'MCP')) {
    return {
      kind: 'NONE',
      reason:
        'an MCP conversation takes no operator messages: MCP carries only what the client asks for',
    };
  }
  return { kind: 'NONE', reason: 'the conversation names no channel thread and no A2A agent' };
}
