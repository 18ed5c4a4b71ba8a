import { Hop } from './hop.types';

/** conversations.md CV2: `KIND:value`, in D44's order; the audit trail joins hops by them. */
export function conversationKeysOf(hop: Hop): string[] {
  const details = hop.details ?? {};
  const keys: string[] = [];
  const text = (name: string): string | undefined =>
    typeof details[name] === 'string' && details[name] !== '' ? details[name] : undefined;
  // CV11: an operator's message names the conversation it is posted into.
  const pinned = text('conversationKey');
  if (pinned) {
    keys.push(pinned);
  }
  const contextId = text('a2aContextId');
  if (contextId) {
    keys.push(`A2A_CONTEXT:${contextId}`);
  }
  const sessionId = text('mcpSessionId');
  const server = [hop.source, hop.sink].find((party) => party.type === 'MCP_SERVER');
  if (sessionId && server) {
    // A session id is the server's own: two servers may hand out the same one.
    keys.push(`MCP_SESSION:${server.id}:${sessionId}`);
  }
  const channelId = text('channelId');
  const threadId = text('threadId');
  if (channelId && threadId) {
    keys.push(`CHANNEL_THREAD:${channelId}:${threadId}`);
  }
  keys.push(`CORRELATION:${hop.correlationId}`);
  return keys;
}
