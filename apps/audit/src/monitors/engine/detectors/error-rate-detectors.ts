import { SubjectType } from '@agp/contracts';

import { deterministicUuid } from '../deterministic-uuid';
import { Finding } from '../monitors.types';
import { RollupMetric } from '../rollup-counters';
import { DetectorSettings } from '../detector-settings';
import {
  Deviation,
  SharePrior,
  assessShare,
  round,
  severityOf,
  sharePrior,
} from '../baselines/baseline';
import {
  DayOfBaseline,
  RateInput,
  SeriesOf,
  seasonalDaysOf,
  seriesKey,
  seriesOfKind,
} from './detector-input';

export interface ErrorRateSpec {
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
  const prior = errorRatePrior(spec, daysOf, input);
  for (const calls of seriesOfKind(input, spec.subjectType, spec.calls)) {
    const errors =
      input.series.get(seriesKey(calls.subjectType, calls.subjectId, 'ERRORS'))?.days ?? [];
    const deviation = assessErrorRate(
      calls,
      daysOf,
      input,
      { ...input.settings, dropRatio: 0 },
      prior,
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

/** One subject's errors among its calls against its baseline share (M19), under `settings`. */
export function assessErrorRate(
  calls: SeriesOf,
  daysOf: (subjectType: string, subjectId: string) => DayOfBaseline[],
  input: RateInput,
  settings: DetectorSettings,
  prior?: SharePrior,
): Deviation | undefined {
  const errors =
    input.series.get(seriesKey(calls.subjectType, calls.subjectId, 'ERRORS'))?.days ?? [];
  const days = daysOf(calls.subjectType, calls.subjectId);
  if (days.length === 0) {
    return undefined;
  }
  return assessShare(
    errors[0] ?? 0,
    calls.days[0] ?? 0,
    days.map(({ day, sameKind }) => ({
      hits: errors[day] ?? 0,
      trials: calls.days[day] ?? 0,
      sameKind,
    })),
    settings,
    prior,
  );
}

/** M31: the error rate the detector's other subjects had over their baseline days. */
export function errorRatePrior(
  spec: ErrorRateSpec,
  daysOf: (subjectType: string, subjectId: string) => DayOfBaseline[],
  input: RateInput,
): SharePrior | undefined {
  return sharePrior(
    seriesOfKind(input, spec.subjectType, spec.calls).map((calls) => {
      const errors =
        input.series.get(seriesKey(calls.subjectType, calls.subjectId, 'ERRORS'))?.days ?? [];
      const days = daysOf(calls.subjectType, calls.subjectId);
      return {
        hits: days.reduce((sum, { day }) => sum + (errors[day] ?? 0), 0),
        trials: days.reduce((sum, { day }) => sum + (calls.days[day] ?? 0), 0),
      };
    }),
  );
}
