import { SubjectType } from '@agp/contracts';

import { DetectorSettings } from '../config/detector-settings';
import { RollupMetric } from '../rollups/rollup-counters';
import { DAY_MS, baselineDays } from './time-window';

/** Counts of one subject and metric: index 0 the recent window, index d the same window d days ago. */
export interface SeriesOf {
  subjectType: SubjectType;
  subjectId: string;
  metric: RollupMetric;
  days: number[];
}

export function seriesOfKind(input: RateInput, subjectType: string, metric: string): SeriesOf[] {
  return input.byKind.get(`${subjectType}:${metric}`) ?? [];
}

/**
 * The baseline days of each subject (M6): the same for every subject older than the lookback, so
 * computed once for those.
 */
export function baselineDaysOf(
  input: RateInput,
): (subjectType: string, subjectId: string) => number[] {
  const oldEnough = input.windowStart.getTime() - input.settings.lookbackDays * DAY_MS;
  const common = baselineDays(input.windowStart, input.settings.lookbackDays, undefined);
  return (subjectType, subjectId) => {
    const firstSeen = input.firstSeen.get(`${subjectType}:${subjectId}`);
    return !firstSeen || firstSeen.getTime() <= oldEnough
      ? common
      : baselineDays(input.windowStart, input.settings.lookbackDays, firstSeen);
  };
}

export function seriesKey(subjectType: string, subjectId: string, metric: string): string {
  return `${subjectType}:${subjectId}:${metric}`;
}

/** What a rate detector sees of one tenant at one tick (rollups only, never raw events). */
export interface RateInput {
  tenantId: string;
  tick: Date;
  windowStart: Date;
  windowMinutes: number;
  /** How many windows' worth each baseline day covers (M6: widened baseline windows). */
  exposure: number;
  series: Map<string, SeriesOf>;
  /** The same series by `subjectType:metric`, so each detector reads only its own. */
  byKind: Map<string, SeriesOf[]>;
  firstSeen: Map<string, Date>;
  settings: DetectorSettings;
}
