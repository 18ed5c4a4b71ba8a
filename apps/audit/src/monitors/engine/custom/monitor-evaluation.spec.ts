import { GroupSeries, aggregate, aggregationAllowed, percentile } from './metric-semantics';
import { MonitorDefinition } from './monitor-definition';
import { evaluateMonitor } from './monitor-evaluation';

const tick = new Date('2026-03-02T12:00:00.000Z');
const start = 100;

function series(
  group: string,
  values: number[],
  samples = values.reduce((s, v) => s + v, 0),
): GroupSeries {
  return { group, minutes: new Map(values.map((v, i) => [start + i, v])), samples };
}

function monitor(overrides: Partial<MonitorDefinition> = {}): MonitorDefinition {
  return {
    id: '8f1c2d3e-0000-4000-8000-000000000001',
    name: 'm',
    description: null,
    monitorType: 'THRESHOLD',
    metric: 'REQUESTS',
    aggregation: 'SUM',
    window: 'LAST_5M',
    groupBy: 'AGENT',
    comparison: 'ABOVE',
    threshold: 10,
    minVolume: 0,
    severity: 'HIGH',
    enabled: true,
    createdByLabel: 'x',
    updatedByLabel: 'x',
    lastEvaluatedAt: null,
    createdAt: tick,
    updatedAt: tick,
    ...overrides,
  };
}

describe('custom monitor evaluation', () => {
  it('should take the nearest rank as the percentile', () => {
    expect(percentile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(percentile([1, 2, 3, 4], 0.95)).toBe(4);
    expect(percentile([7], 0.99)).toBe(7);
  });

  it('should fill a count window’s empty minutes with 0 but not a latency’s', () => {
    const s = series('a', [4, 2]);
    expect(aggregate('REQUESTS', 'AVG', s, 5, start)).toBe(6 / 5);
    expect(aggregate('REQUESTS', 'MIN', s, 5, start)).toBe(0);
    expect(aggregate('LATENCY_P95_MS', 'MIN', s, 5, start)).toBe(2);
    expect(aggregate('REQUESTS', 'RATE_PER_MIN', s, 5, start)).toBe(6 / 5);
    expect(aggregate('USER_DISTINCT', 'COUNT_DISTINCT', { ...s, distinct: 3 }, 5, start)).toBe(3);
  });

  it('should refuse the pairs without meaning', () => {
    expect(aggregationAllowed('LATENCY_P95_MS', 'SUM')).toBe(false);
    expect(aggregationAllowed('REQUESTS', 'COUNT_DISTINCT')).toBe(false);
    expect(aggregationAllowed('AGENT_DISTINCT', 'COUNT_DISTINCT')).toBe(true);
  });

  it('should raise a THRESHOLD finding per group above it, with the custom-query evidence', () => {
    const findings = evaluateMonitor(monitor(), {
      tenantId: 't',
      tick,
      startMinute: start,
      current: [series('a', [5, 6]), series('b', [1])],
    });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      detector: 'CUSTOM_MONITOR',
      subject: { type: 'AGENT', id: 'a' },
      direction: 'SPIKE',
      evidence: {
        kind: 'CUSTOM_QUERY',
        observedValue: 11,
        threshold: 10,
        monitorType: 'THRESHOLD',
      },
    });
  });

  it('should compare a CHANGE with the same window earlier and skip groups under minVolume', () => {
    const findings = evaluateMonitor(
      monitor({ monitorType: 'CHANGE', threshold: 50, minVolume: 3 }),
      {
        tenantId: 't',
        tick,
        startMinute: start,
        current: [series('a', [9]), series('b', [2])],
        previous: new Map([
          ['a', { group: 'a', minutes: new Map([[start - 1_440, 4]]), samples: 4 }],
        ]),
      },
    );
    expect(findings.map((f) => [f.subject.id, f.evidence])).toEqual([
      ['a', expect.objectContaining({ observedValue: 9, comparisonValue: 4 })],
    ]);
  });

  it('should find an OUTLIER far from its peers and none among equals', () => {
    const peers = [series('a', [10]), series('b', [12]), series('c', [11]), series('d', [13])];
    const flagged = evaluateMonitor(monitor({ monitorType: 'OUTLIER', threshold: 3 }), {
      tenantId: 't',
      tick,
      startMinute: start,
      current: [...peers, series('hot', [90])],
    });
    expect(flagged.map((f) => f.subject.id)).toEqual(['hot']);
    const equals = evaluateMonitor(monitor({ monitorType: 'OUTLIER', threshold: 3 }), {
      tenantId: 't',
      tick,
      startMinute: start,
      current: [series('a', [5]), series('b', [5]), series('c', [5])],
    });
    expect(equals).toEqual([]);
  });
});
