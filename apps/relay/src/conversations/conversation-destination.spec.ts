import { ConversationHop } from '@agp/contracts';

import { destinationOf } from './conversation-destination';

function hop(over: Partial<ConversationHop>): ConversationHop {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    occurredAt: '2026-12-07T09:00:00.000Z',
    protocol: 'JSONRPC',
    direction: 'REQUEST',
    source: { type: 'USER', id: 'u1' },
    sink: { type: 'AGENT', id: 'agent-1' },
    action: 'LOG',
    policyIds: [],
    reasons: [],
    correlationId: 'c1',
    route: {},
    ...over,
  };
}

describe(destinationOf.name, () => {
  it('should answer the channel thread when a channel hop names one', () => {
    const hops = [hop({ protocol: 'CHANNEL', route: { channelId: 'ch', threadId: 'C1:1.2' } })];

    expect(destinationOf(hops)).toEqual({
      kind: 'CHANNEL_THREAD',
      channelId: 'ch',
      threadId: 'C1:1.2',
    });
  });

  it('should answer the A2A agent with the context an answer named when the request had none', () => {
    const hops = [
      hop({}),
      hop({
        direction: 'RESPONSE',
        source: { type: 'AGENT', id: 'agent-1' },
        route: { a2aContextId: 'ctx-1' },
      }),
    ];

    expect(destinationOf(hops)).toEqual({ kind: 'A2A', agentId: 'agent-1', contextId: 'ctx-1' });
  });

  it('should answer none when the conversation is MCP only', () => {
    const hops = [hop({ protocol: 'MCP', sink: { type: 'MCP_SERVER', id: 's1' } })];

    expect(destinationOf(hops)).toMatchObject({ kind: 'NONE' });
  });
});
