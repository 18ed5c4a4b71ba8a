import { SubjectType } from '@agp/contracts';

import { deterministicUuid } from '../common/deterministic-uuid';
import { Finding } from '../monitors.types';
import { RollupMetric } from '../rollups/rollup-counters';
import { assessShare, round, severityOf } from './baseline';
import { RateInput, seasonalDaysOf, seriesKey, seriesOfKind } from './detector-input';

interface ErrorRateSpec {
  subjectType: SubjectType;
  calls: RollupMetric;
}

/** Error-rate detectors: errors among the subject's calls, now against its baseline rate (M4, M6). */
export const ERROR_RATE_SPECS = {
  LLM_PROVIDER_ERROR_RATE_SPIKE: { subjectType: 'LLM_PROVIDER', calls: 'LLM_CALLS' },
  MCP_SERVER_ERROR_RATE_SPIKE: { subjectType: 'MCP_SERVER', calls: 'REQUESTS' },
} satisfies Record<string, ErrorRateSpec>;
export type ErrorRateDetector = keyof typeof ERROR_RATE_SPECS;
export const ERROR_RATE_DETECTORS = Object.keys(ERROR_RATE_SPECS) as ErrorRateDetector[];

export function errorRateMetrics(detectors: readonly ErrorRateDetector[]): RollupMetric[] {
  return [
    ...new Set<RollupMetric>(detectors.flatMap((d) => ['ERRORS', ERROR_RATE_SPECS[d].calls])),
  ];
}

export function errorRateFindings(detector: ErrorRateDetector, input: RateInput): Finding[] {
  const spec: ErrorRateSpec = ERROR_RATE_SPECS[detector];
  const findings: Finding[] = [];
  const daysOf = seasonalDaysOf(input);
  for (const calls of seriesOfKind(input, spec.subjectType, spec.calls)) {
    const errors =
      input.series.get(seriesKey(calls.subjectType, calls.subjectId, 'ERRORS'))?.days ?? [];
    const days = daysOf(calls.subjectType, calls.subjectId);
    if (days.length === 0) {
      continue;
    }
    const deviation = assessShare(
      errors[0] ?? 0,
      calls.days[0] ?? 0,
      days.map(({ day, sameKind }) => ({
        hits: errors[day] ?? 0,
        trials: calls.days[day] ?? 0,
        sameKind,
      })),
      { ...input.settings, dropRatio: 0 },
    );
    if (!deviation) {
      continue;
    }
    const minutes = input.windowMinutes;
    const subject = { type: calls.subjectType, id: calls.subjectId };
    const observedRate = round(((errors[0] ?? 0) / (calls.days[0] ?? 1)) * 100, 1);
    findings.push({
      findingId: deterministicUuid(
        input.tenantId,
        detector,
        subject.type,
        subject.id,
        input.tick.toISOString(),
      ),
      detector,
      severity: severityOf('SPIKE', deviation.ratio),
      direction: 'SPIKE',
      subject,
      summary:
        `${subject.type} ${subject.id}: error rate ${observedRate} % is ${round(deviation.ratio, 1)}x the baseline ` +
        `(${deviation.observed} errors in ${calls.days[0] ?? 0} calls over ${minutes} min)`,
      evidence: {
        kind: 'INFRASTRUCTURE_INCIDENT',
        subjectType: subject.type,
        subjectId: subject.id,
        incidentType: 'ERROR_RATE',
        direction: 'SPIKE',
        observedTotal: deviation.observed,
        observedPerMinute: round(deviation.observed / minutes),
        baselinePerMinute: round(deviation.expected / minutes),
        ratio: round(deviation.ratio),
        sampleMinutes: minutes,
      },
      detectedAt: input.tick,
    });
  }
  return findings;
}
