import { MonitorDefinition } from '../engine/custom/monitor-definition';
import { MetricReadPlan, needsMinuteValues } from './metric-read-plan';

function monitor(fields: Partial<MonitorDefinition>): MonitorDefinition {
  return {
    id: 'm',
    name: 'm',
    description: null,
    monitorType: 'THRESHOLD',
    metric: 'REQUESTS',
    aggregation: 'SUM',
    window: 'LAST_1H',
    groupBy: 'AGENT',
    comparison: 'ABOVE',
    threshold: 1,
    minVolume: 0,
    severity: 'MEDIUM',
    enabled: true,
    createdByLabel: 't',
    updatedByLabel: 't',
    lastEvaluatedAt: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...fields,
  };
}

describe(MetricReadPlan.name, () => {
  it('should read every window of one rollup counter in one batch, each window once', () => {
    const sut = new MetricReadPlan();
    const a = sut.need(monitor({ window: 'LAST_1H' }), 1_000);
    const b = sut.need(monitor({ window: 'LAST_1H', aggregation: 'RATE_PER_MIN' }), 1_000);
    sut.need(monitor({ window: 'LAST_24H' }), 1_000);
    sut.need(monitor({ window: 'LAST_1H', aggregation: 'MAX' }), 1_000);

    expect(b).toBe(a);
    expect(sut.batches().map((batch) => [batch.kind, batch.reads.map((r) => r.range)])).toEqual([
      [
        'totals',
        [
          { fromMinute: 1_000, toMinute: 1_060 },
          { fromMinute: 1_000, toMinute: 2_440 },
        ],
      ],
      ['minutes', [{ fromMinute: 1_000, toMinute: 1_060 }]],
    ]);
  });

  it('should read the events once per grouping for the other metrics, and distinct counts alone', () => {
    const sut = new MetricReadPlan();
    sut.need(monitor({ metric: 'ERROR_RATE_PCT', aggregation: 'AVG' }), 0);
    sut.need(monitor({ metric: 'LATENCY_P95_MS', aggregation: 'MAX', window: 'LAST_5M' }), 0);
    sut.need(monitor({ metric: 'ERRORS', groupBy: 'USER' }), 0);
    sut.need(monitor({ metric: 'USER_DISTINCT', aggregation: 'COUNT_DISTINCT' }), 0);
    sut.need(monitor({ metric: 'AGENT_DISTINCT', aggregation: 'COUNT_DISTINCT' }), 0);

    expect(
      sut
        .batches()
        .map((batch) => [batch.kind, 'groupBy' in batch ? batch.groupBy : '', batch.reads.length]),
    ).toEqual([
      ['events', 'AGENT', 2],
      ['events', 'USER', 1],
      ['distinct', 'AGENT', 1],
      ['distinct', 'AGENT', 1],
    ]);
  });

  it('should read every metric from the events when the rollups are not to be used (M26)', () => {
    const sut = new MetricReadPlan(true);
    sut.need(monitor({ metric: 'REQUESTS' }), 0);
    sut.need(monitor({ metric: 'BLOCKS', groupBy: 'AGENT' }), 0);

    expect(sut.batches().map((batch) => [batch.kind, batch.reads.length])).toEqual([['events', 2]]);
  });

  it('should read every metric of a grouping from its cells, and windows before the cells as before (M29)', () => {
    const sut = new MetricReadPlan(false, true, 1_000);
    sut.need(monitor({ metric: 'REQUESTS' }), 1_000);
    sut.need(monitor({ metric: 'LATENCY_P95_MS', aggregation: 'MAX' }), 1_000);
    sut.need(monitor({ metric: 'USER_DISTINCT', aggregation: 'COUNT_DISTINCT' }), 2_000);
    sut.need(monitor({ metric: 'REQUESTS', groupBy: 'USER' }), 1_000);
    sut.need(monitor({ metric: 'REQUESTS' }), 999);

    expect(
      sut
        .batches()
        .map((batch) => [batch.kind, 'groupBy' in batch ? batch.groupBy : '', batch.reads.length]),
    ).toEqual([
      ['series', 'AGENT', 3],
      ['series', 'USER', 1],
      ['totals', '', 1],
    ]);
  });

  it('should ask a cells read for its minutes only when one of its monitors needs them (M36)', () => {
    const sut = new MetricReadPlan(false, true, 0);
    sut.need(monitor({ aggregation: 'SUM' }), 1_000);
    sut.need(monitor({ aggregation: 'RATE_PER_MIN' }), 1_000);
    sut.need(monitor({ metric: 'ERRORS', aggregation: 'AVG' }), 1_000);
    sut.need(monitor({ metric: 'ERROR_RATE_PCT', aggregation: 'COUNT' }), 1_000);
    sut.need(monitor({ metric: 'USER_DISTINCT', aggregation: 'COUNT_DISTINCT' }), 1_000);
    sut.need(monitor({ metric: 'USER_DISTINCT', aggregation: 'MAX' }), 1_000);

    expect(sut.batches().flatMap((batch) => batch.reads.map((r) => [r.metric, r.minutes]))).toEqual(
      [
        ['REQUESTS', false],
        ['ERRORS', false],
        ['ERROR_RATE_PCT', false],
        ['USER_DISTINCT', true],
      ],
    );
  });

  it('should need the minutes for every statistic over minutes and for ratios and latencies', () => {
    expect(needsMinuteValues({ metric: 'REQUESTS', aggregation: 'P95' })).toBe(true);
    expect(needsMinuteValues({ metric: 'REQUESTS', aggregation: 'AVG' })).toBe(false);
    expect(needsMinuteValues({ metric: 'LATENCY_P95_MS', aggregation: 'AVG' })).toBe(true);
    expect(needsMinuteValues({ metric: 'LATENCY_P95_MS', aggregation: 'COUNT' })).toBe(false);
    expect(needsMinuteValues({ metric: 'AGENT_DISTINCT', aggregation: 'SUM' })).toBe(false);
  });
});
