import { SubjectType } from '@agp/contracts';

import { DetectorSettings } from '../config/detector-settings';
import { RollupMetric } from '../rollups/rollup-counters';

/** Counts of one subject and metric: index 0 the recent window, index d the same window d days ago. */
export interface SeriesOf {
  subjectType: SubjectType;
  subjectId: string;
  metric: RollupMetric;
  days: number[];
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
  firstSeen: Map<string, Date>;
  settings: DetectorSettings;
}
