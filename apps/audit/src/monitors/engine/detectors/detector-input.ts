import { SubjectType } from '@agp/contracts';

import { DetectorSettings } from '../detector-settings';
import { RollupMetric } from '../rollup-counters';
import { QuarterPairs } from '../baselines/history-dispersion';
import { lowOutlierDays } from '../baselines/seasonal-baseline';
import { DAY_MS, baselineDays } from './time-window';

/** Counts of one subject and metric: index 0 the recent window, index d the same window d days ago. */
export interface SeriesOf {
  subjectType: SubjectType;
  subjectId: string;
  metric: RollupMetric;
  days: number[];
  /** M18: each baseline day's count in its consecutive pieces (`parts[0]` is `[days[0]]`). */
  parts?: number[][];
}

export function seriesOfKind(input: RateInput, subjectType: string, metric: string): SeriesOf[] {
  return input.byKind.get(`${subjectType}:${metric}`) ?? [];
}

/** The baseline days of each subject (M6). */
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

/** A baseline day of M6 and whether it is of the window's own kind (M18 takes the others too). */
export interface DayOfBaseline {
  day: number;
  sameKind: boolean;
  /** M43: a day the tenant's own traffic says was a holiday at this clock time. */
  isHoliday?: boolean;
}

// M18: every day of the lookback since the subject was first seen, marked whether it is one of its
// M6 baseline days (the level comes from those; the trend and dispersion from all).
export function seasonalDaysOf(
  input: RateInput,
): (subjectType: string, subjectId: string) => DayOfBaseline[] {
  const chosenOf = baselineDaysOf(input);
  const holidays = tenantHolidays(input, chosenOf);
  return (subjectType, subjectId) => {
    const chosen = new Set(chosenOf(subjectType, subjectId));
    if (chosen.size === 0) {
      return [];
    }
    const firstSeen = input.firstSeen.get(`${subjectType}:${subjectId}`);
    const days: DayOfBaseline[] = [];
    for (let day = 1; day <= input.settings.lookbackDays; day += 1) {
      if (!firstSeen || input.windowStart.getTime() - day * DAY_MS >= firstSeen.getTime()) {
        days.push({ day, sameKind: chosen.has(day), isHoliday: holidays.has(day) });
      }
    }
    return days;
  };
}

// M43: the baseline days on which the tenant's requests at this clock time fell far below the other
// days of their kind (M30's rule): a holiday, when every subject ran at its weekend level, is no
// baseline of a weekday for any of them.
function tenantHolidays(
  input: RateInput,
  chosenOf: (subjectType: string, subjectId: string) => number[],
): Set<number> {
  const requests = input.series.get(seriesKey('TENANT', input.tenantId, 'REQUESTS'));
  const chosen = new Set(chosenOf('TENANT', input.tenantId));
  if (!requests || chosen.size === 0) {
    return new Set();
  }
  const days = Array.from({ length: input.settings.lookbackDays }, (_, i) => ({
    day: i + 1,
    perWindow: (requests.days[i + 1] ?? 0) / input.exposure,
    sameKind: chosen.has(i + 1),
  }));
  return new Set(lowOutlierDays(days, input.exposure).map((d) => d.day));
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
  /** M40: each series' quarter pairs per day of its lookback, by `seriesKey` (none: no estimate). */
  historyPairs?: Map<string, QuarterPairs[]>;
}
