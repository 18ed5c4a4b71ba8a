import { StoredTraffic, seriesCellsOf, totalsOf, valueOf } from './metric-series';

const TENANT = 'A0000000-0000-4000-8000-000000000000';
const AT = '2026-06-01T10:07:30.000Z';
const MINUTE = Math.floor(Date.parse(AT) / 60_000);

function event(fields: Partial<StoredTraffic>): StoredTraffic {
  return {
    tenantId: TENANT,
    eventType: 'COMMUNICATION_AUDIT',
    occurredAt: AT,
    protocol: 'MCP',
    action: 'LOG',
    parties: [
      { type: 'USER', id: 'U1' },
      { type: 'AGENT', id: 'a1' },
      { type: 'MCP_SERVER', id: 's1' },
    ],
    policyIds: ['p1'],
    details: { direction: 'REQUEST', latencyMs: 12.5, toolName: 'search' },
    ...fields,
  };
}

describe('seriesCellsOf', () => {
  it('should count an event once in every group M21 gives it, with the filters of each metric', () => {
    const cells = seriesCellsOf([
      event({}),
      event({ action: 'BLOCK', details: { direction: 'RESPONSE', latencyMs: 3 } }),
      event({ eventType: 'LLM_GATEWAY_FAILOVER', details: { llmProviderId: 'prov' } }),
    ]);
    const tenant = cells.find((c) => c.groupBy === 'NONE');

    expect(tenant).toMatchObject({
      key: TENANT.toLowerCase(),
      minute: MINUTE,
      requests: 1,
      blocks: 1,
      toolCalls: 1,
      mcpRequests: 1,
      traffic: 2,
      llmFailovers: 1,
      latencies: [12.5, 3],
      users: ['u1'],
      userEvents: 2,
    });
    expect(cells.filter((c) => c.groupBy === 'USER').map((c) => c.key)).toEqual(['u1']);
    expect(cells.find((c) => c.groupBy === 'LLM_PROVIDER')).toMatchObject({
      key: 'prov',
      llmFailovers: 1,
      traffic: 0,
    });
  });

  it('should key a party named twice once, and take ids from details as their text', () => {
    const cells = seriesCellsOf([
      event({
        parties: [
          { type: 'AGENT', id: 'A1' },
          { type: 'AGENT', id: 'a1' },
          { type: 'AGENT', id: '' },
          null,
        ],
        details: { mcpServerId: 42, outcome: 'ERROR' },
      }),
    ]);

    expect(cells.filter((c) => c.groupBy === 'AGENT')).toMatchObject([
      { key: 'a1', requests: 1, errors: 1, agents: ['a1', ''], agentEvents: 1 },
    ]);
    expect(cells.filter((c) => c.groupBy === 'MCP_SERVER').map((c) => c.key)).toEqual(['42']);
  });

  it('should skip events the metrics never read', () => {
    expect(seriesCellsOf([event({ eventType: 'GOVERNANCE_LIFECYCLE' })])).toEqual([]);
  });
});

describe('valueOf', () => {
  it('should give percentiles by nearest rank and error rates in percent', () => {
    const row = { key: 'k', minute: 1, latencies: [9, 1, 5, 3], errors: 1, traffic: 4 };

    expect(valueOf('LATENCY_P50_MS', row)).toBe(3);
    expect(valueOf('LATENCY_P95_MS', row)).toBe(9);
    expect(valueOf('ERROR_RATE_PCT', row)).toBe(25);
  });
});

describe('totalsOf', () => {
  it('should count every event of a group once, at least as many as any metric samples', () => {
    const cells = seriesCellsOf([
      event({}),
      event({ occurredAt: '2026-06-01T10:09:00.000Z', action: 'BLOCK' }),
      event({ eventType: 'LLM_GATEWAY_FAILOVER', parties: [], details: { llmProviderId: 'p' } }),
    ]);

    const totals = totalsOf(cells);

    expect(totals.filter((t) => t.groupBy === 'NONE')).toEqual([
      { groupBy: 'NONE', key: TENANT.toLowerCase(), events: 3 },
    ]);
    expect(totals.find((t) => t.groupBy === 'AGENT')).toEqual({
      groupBy: 'AGENT',
      key: 'a1',
      events: 2,
    });
    // Sorted by grouping and key: two batches lock the rows they share in the same order.
    const order = totals.map((t) => `${t.groupBy}|${t.key}`);
    expect(order).toEqual([...order].sort());
  });
});
