import { IndexedHop, conversationIdOf, groupHops, mapKey } from './conversation-grouping';

const TENANT = '11111111-1111-4111-8111-111111111111';

function hop(eventId: string, at: string, protocol: string, keys: string[]): IndexedHop {
  return {
    eventId,
    tenantId: TENANT,
    occurredAt: at,
    protocol,
    keys,
    parties: [`AGENT:${eventId}`],
  };
}

describe(groupHops.name, () => {
  it('should join an MCP hop to the A2A conversation whose correlation id it carries', () => {
    const hops = [
      hop('e1', '2026-01-01T00:00:00.000Z', 'JSONRPC', ['A2A_CONTEXT:ctx', 'CORRELATION:c1']),
      hop('e2', '2026-01-01T00:00:01.000Z', 'MCP', ['MCP_SESSION:srv:s1', 'CORRELATION:c1']),
      hop('e3', '2026-01-01T00:00:02.000Z', 'MCP', ['MCP_SESSION:srv:s1', 'CORRELATION:c2']),
    ];

    const sut = groupHops(hops, new Map());

    const ids = new Set(sut.hops.map((h) => h.conversationId));
    expect([...ids]).toEqual([conversationIdOf(TENANT, 'A2A_CONTEXT:ctx')]);
    expect(sut.conversations[0]).toMatchObject({ keyKind: 'A2A_CONTEXT', key: 'ctx', hopCount: 3 });
    expect([...sut.conversations[0].families].sort()).toEqual(['AGENT', 'MCP']);
  });

  it('should join the conversation of the correlation id when the MCP session already has its own', () => {
    const known = new Map([
      [mapKey(TENANT, 'MCP_SESSION:srv:s1'), 'session-conversation'],
      [mapKey(TENANT, 'CORRELATION:c1'), 'person-conversation'],
    ]);

    const sut = groupHops(
      [hop('e4', '2026-01-01T00:00:03.000Z', 'MCP', ['MCP_SESSION:srv:s1', 'CORRELATION:c1'])],
      known,
    );

    expect(sut.hops[0].conversationId).toBe('person-conversation');
    expect(sut.newKeys).toEqual([]);
  });

  it('should keep a conversation a key already names when the batch is a later one', () => {
    const known = new Map([[mapKey(TENANT, 'CHANNEL_THREAD:ch:t1'), 'earlier-conversation']]);

    const sut = groupHops(
      [
        hop('e9', '2026-01-01T00:00:00.000Z', 'CHANNEL', [
          'CHANNEL_THREAD:ch:t1',
          'CORRELATION:c9',
        ]),
      ],
      known,
    );

    expect(sut.hops[0].conversationId).toBe('earlier-conversation');
    expect(sut.newKeys).toEqual([
      { tenantId: TENANT, key: 'CORRELATION:c9', conversationId: 'earlier-conversation' },
    ]);
  });

  it('should start separate conversations when hops share no key', () => {
    const sut = groupHops(
      [
        hop('a', '2026-01-01T00:00:00.000Z', 'JSONRPC', ['CORRELATION:x']),
        hop('b', '2026-01-01T00:00:00.000Z', 'JSONRPC', ['CORRELATION:y']),
      ],
      new Map(),
    );

    expect(sut.conversations).toHaveLength(2);
  });

  it('should give the same id for the same tenant and key on every call', () => {
    expect(conversationIdOf(TENANT, 'CORRELATION:x')).toBe(
      conversationIdOf(TENANT, 'CORRELATION:x'),
    );
    expect(conversationIdOf(TENANT, 'CORRELATION:x')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
