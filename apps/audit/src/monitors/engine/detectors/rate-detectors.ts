import { Action, IncidentType, MonitorEvidence, PolicyMetric, SubjectType } from '@agp/contracts';

import { deterministicUuid } from '../deterministic-uuid';
import { DetectorSettings, TrafficDetector } from '../detector-settings';
import { Finding } from '../monitors.types';
import { RollupMetric } from '../rollup-counters';
import { Deviation, assessCount, assessShare, round, severityOf } from '../baselines/baseline';
import {
  DayOfBaseline,
  RateInput,
  SeriesOf,
  seasonalDaysOf,
  seriesKey,
  seriesOfKind,
} from './detector-input';
import { historyDispersion } from '../baselines/history-dispersion';

type EvidenceShape =
  | { kind: 'POLICY_METRIC'; policyMetric: PolicyMetric }
  | { kind: 'ENTITY_VOLUME' }
  | { kind: 'TENANT_ACTION_SPIKE'; action: Action; unattributed: RollupMetric }
  | { kind: 'INFRASTRUCTURE_INCIDENT'; incidentType: IncidentType };

interface RateSpec {
  subjectType: SubjectType;
  metric: RollupMetric;
  spikeOnly: boolean;
  evidence: EvidenceShape;
  /** M19: judged as a share of this metric's count (the calls behind the outcome) when recorded. */
  shareOf?: RollupMetric;
}

/** The count-based detectors: which subject and metric each watches (M4) and its evidence kind. */
export const RATE_SPECS = {
  POLICY_INVOCATION_ANOMALY: policy('INVOCATIONS', 'INVOCATIONS'),
  POLICY_BLOCK_ANOMALY: { ...policy('BLOCKS', 'BLOCKS'), shareOf: 'INVOCATIONS' },
  POLICY_WARN_ANOMALY: { ...policy('WARNS', 'WARNS'), shareOf: 'INVOCATIONS' },
  POLICY_HITL_HOLD_ANOMALY: { ...policy('HITL_HOLDS', 'HITL_HOLDS'), shareOf: 'INVOCATIONS' },
  AGENT_VOLUME_ANOMALY: volume('AGENT'),
  USER_VOLUME_ANOMALY: volume('USER'),
  MCP_SERVER_VOLUME_ANOMALY: volume('MCP_SERVER'),
  LLM_GATEWAY_VOLUME_ANOMALY: volume('LLM_GATEWAY'),
  CHANNEL_VOLUME_ANOMALY: volume('CHANNEL'),
  TENANT_ERROR_SPIKE: tenant('ERRORS', 'ERROR', 'UNATTRIBUTED_ERRORS'),
  TENANT_WARN_SPIKE: tenant('WARNS', 'WARN', 'UNATTRIBUTED_WARNS'),
  TENANT_HITL_SPIKE: tenant('HITL_HOLDS', 'HUMAN_REVIEW_REQUIRED', 'UNATTRIBUTED_HITL_HOLDS'),
  LLM_GATEWAY_FAILOVER_SPIKE: {
    subjectType: 'LLM_GATEWAY',
    metric: 'LLM_FAILOVERS',
    spikeOnly: true,
    evidence: { kind: 'INFRASTRUCTURE_INCIDENT', incidentType: 'FAILOVER' },
  },
} satisfies Partial<Record<TrafficDetector, RateSpec>>;
export type RateDetector = keyof typeof RATE_SPECS;
export const RATE_DETECTORS = Object.keys(RATE_SPECS) as RateDetector[];

function policy(metric: RollupMetric, policyMetric: PolicyMetric): RateSpec {
  return {
    subjectType: 'POLICY',
    metric,
    spikeOnly: false,
    evidence: { kind: 'POLICY_METRIC', policyMetric },
  };
}

function volume(subjectType: SubjectType): RateSpec {
  return { subjectType, metric: 'REQUESTS', spikeOnly: false, evidence: { kind: 'ENTITY_VOLUME' } };
}

function tenant(metric: RollupMetric, action: Action, unattributed: RollupMetric): RateSpec {
  return {
    subjectType: 'TENANT',
    metric,
    spikeOnly: true,
    evidence: { kind: 'TENANT_ACTION_SPIKE', action, unattributed },
  };
}

export function rateMetrics(detectors: readonly RateDetector[]): RollupMetric[] {
  const metrics = new Set<RollupMetric>();
  for (const detector of detectors) {
    const spec: RateSpec = RATE_SPECS[detector];
    metrics.add(spec.metric);
    if (spec.shareOf) {
      metrics.add(spec.shareOf);
    }
    if (spec.evidence.kind === 'TENANT_ACTION_SPIKE') {
      metrics.add(spec.evidence.unattributed);
    }
  }
  return [...metrics];
}

export function rateFindings(detector: RateDetector, input: RateInput): Finding[] {
  const spec: RateSpec = RATE_SPECS[detector];
  const settings = spec.spikeOnly ? { ...input.settings, dropRatio: 0 } : input.settings;
  const findings: Finding[] = [];
  const daysOf = seasonalDaysOf({ ...input, settings });
  for (const series of seriesOfKind(input, spec.subjectType, spec.metric)) {
    const deviation = assessSeries(detector, series, daysOf, input, settings);
    if (deviation) {
      findings.push(toFinding(detector, spec, series, deviation, input));
    }
  }
  return findings;
}

// One subject's series against its baseline (a share of its calls when the detector has them, M19,
// else a count, M17), under `settings`: the bench's replay also asks it with relaxed ones.
export function assessSeries(
  detector: RateDetector,
  series: SeriesOf,
  daysOf: (subjectType: string, subjectId: string) => DayOfBaseline[],
  input: RateInput,
  settings: DetectorSettings,
): Deviation | undefined {
  const spec: RateSpec = RATE_SPECS[detector];
  const days = daysOf(series.subjectType, series.subjectId);
  if (days.length === 0) {
    return undefined;
  }
  const calls = spec.shareOf
    ? input.series.get(seriesKey(series.subjectType, series.subjectId, spec.shareOf))?.days
    : undefined;
  return calls
    ? assessShare(
        series.days[0] ?? 0,
        calls[0] ?? 0,
        days.map(({ day, sameKind }) => ({
          hits: series.days[day] ?? 0,
          trials: calls[day] ?? 0,
          sameKind,
        })),
        settings,
      )
    : assessCount(
        series.days[0] ?? 0,
        days.map(({ day, sameKind, isHoliday }) => {
          const pieces = series.parts?.[day] ?? [];
          return {
            age: day,
            perWindow: (series.days[day] ?? 0) / input.exposure,
            sameKind,
            isHoliday,
            pieces: pieces.map((n) => (n * pieces.length) / input.exposure),
          };
        }),
        settings,
        input.exposure,
        // M30: a tenant's count sums its subjects', whose earlier anomalies it carries.
        spec.subjectType === 'TENANT',
        {
          dispersion: historyDispersion(
            input.historyPairs?.get(seriesKey(series.subjectType, series.subjectId, spec.metric)) ??
              [],
            input.windowMinutes,
          ),
          weekday: input.windowStart.getUTCDay(),
          // M89: a longer window than the detector's own fades M6's floor on few events.
          fadeFloor: input.windowMinutes > settings.windowMinutes,
        },
      );
}

function toFinding(
  detector: RateDetector,
  spec: RateSpec,
  series: SeriesOf,
  deviation: Deviation,
  input: RateInput,
): Finding {
  const minutes = input.windowMinutes;
  const figures = {
    direction: deviation.direction,
    observedTotal: deviation.observed,
    observedPerMinute: round(deviation.observed / minutes),
    baselinePerMinute: round(deviation.expected / minutes),
    ratio: round(deviation.ratio),
    sampleMinutes: minutes,
  };
  const subject = { type: series.subjectType, id: series.subjectId };
  const evidence = evidenceOf(spec.evidence, series, figures, input);
  const change =
    deviation.direction === 'SPIKE'
      ? `${figures.ratio}x`
      : `down to ${Math.round(deviation.ratio * 100)} % of`;
  return {
    findingId: deterministicUuid(
      input.tenantId,
      detector,
      subject.type,
      subject.id,
      input.tick.toISOString(),
    ),
    detector,
    severity: severityOf(deviation.direction, deviation.ratio),
    direction: deviation.direction,
    subject,
    summary:
      `${subject.type} ${subject.id}: ${series.metric.toLowerCase().replace(/_/g, ' ')} ${change} the baseline ` +
      `(${deviation.observed} in ${minutes} min, ${round(deviation.expected, 1)} expected)`,
    evidence,
    detectedAt: input.tick,
  };
}

type Figures = Pick<
  Extract<MonitorEvidence, { kind: 'POLICY_METRIC' }>,
  | 'direction'
  | 'observedTotal'
  | 'observedPerMinute'
  | 'baselinePerMinute'
  | 'ratio'
  | 'sampleMinutes'
>;

function evidenceOf(
  shape: EvidenceShape,
  series: SeriesOf,
  figures: Figures,
  input: RateInput,
): MonitorEvidence {
  switch (shape.kind) {
    case 'POLICY_METRIC':
      return {
        kind: 'POLICY_METRIC',
        policyId: series.subjectId,
        metric: shape.policyMetric,
        ...figures,
      };
    case 'ENTITY_VOLUME':
      return {
        kind: 'ENTITY_VOLUME',
        subjectType: series.subjectType,
        subjectId: series.subjectId,
        ...figures,
      };
    case 'INFRASTRUCTURE_INCIDENT':
      return {
        kind: 'INFRASTRUCTURE_INCIDENT',
        subjectType: series.subjectType,
        subjectId: series.subjectId,
        incidentType: shape.incidentType,
        ...figures,
      };
    case 'TENANT_ACTION_SPIKE': {
      const unattributed =
        input.series.get(seriesKey('TENANT', series.subjectId, shape.unattributed))?.days[0] ?? 0;
      return {
        kind: 'TENANT_ACTION_SPIKE',
        action: shape.action,
        ...figures,
        topContributors: topContributors(series.metric, figures.observedTotal, input),
        unattributedCount: unattributed,
      };
    }
  }
}

/** M10: the five policies with most of the action in the window, as a share of the tenant's total. */
function topContributors(
  metric: RollupMetric,
  total: number,
  input: RateInput,
): Array<{ policyId: string; count: number; percentage: number }> {
  const policies = seriesOfKind(input, 'POLICY', metric)
    .filter((s) => (s.days[0] ?? 0) > 0)
    .sort((a, b) => (b.days[0] ?? 0) - (a.days[0] ?? 0) || a.subjectId.localeCompare(b.subjectId))
    .slice(0, 5);
  return policies.map((s) => ({
    policyId: s.subjectId,
    count: s.days[0] ?? 0,
    percentage: total > 0 ? Math.min(100, round(((s.days[0] ?? 0) / total) * 100, 2)) : 0,
  }));
}
