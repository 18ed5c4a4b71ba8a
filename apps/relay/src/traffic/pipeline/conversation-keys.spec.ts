import { conversationKeysOf } from './conversation-keys';
import { Hop } from './hop.types';

function hopWith(details: Record<string, unknown>, protocol: Hop['protocol'] = 'JSONRPC'): Hop {
  return {
    tenantId: 't',
    correlationId: 'corr-1',
    protocol,
    direction: 'REQUEST',
    source: { type: 'AGENT', id: 'agent-1' },
    sink: protocol === 'MCP' ? { type: 'MCP_SERVER', id: 'server-1' } : { type: 'AGENT', id: 'a' },
    agent: { type: 'AGENT', id: 'agent-1' },
    message: { json: {}, text: '' },
    details,
    captureContent: false,
  };
}

describe(conversationKeysOf.name, () => {
  it('should put the A2A context first when the hop names one', () => {
    const keys = conversationKeysOf(hopWith({ a2aContextId: 'ctx-9' }));
    expect(keys).toEqual(['A2A_CONTEXT:ctx-9', 'CORRELATION:corr-1']);
  });

  it('should qualify an MCP session by its server when the hop is on the MCP path', () => {
    const keys = conversationKeysOf(hopWith({ mcpSessionId: 's-1' }, 'MCP'));
    expect(keys).toEqual(['MCP_SESSION:server-1:s-1', 'CORRELATION:corr-1']);
  });

  it('should key a channel hop by its channel and thread when both are known', () => {
    const keys = conversationKeysOf(hopWith({ channelId: 'ch-1', threadId: 'C1:17.5' }, 'CHANNEL'));
    expect(keys).toEqual(['CHANNEL_THREAD:ch-1:C1:17.5', 'CORRELATION:corr-1']);
  });

  it('should fall back to the correlation id when nothing else says', () => {
    expect(conversationKeysOf(hopWith({ threadId: 'no-channel' }))).toEqual(['CORRELATION:corr-1']);
  });

  it('should put a pinned conversation key first when an operator posts into a conversation', () => {
    const keys = conversationKeysOf(
      hopWith({ conversationKey: 'CHANNEL_THREAD:ch:t', a2aContextId: 'x' }),
    );
    expect(keys[0]).toBe('CHANNEL_THREAD:ch:t');
  });
});
