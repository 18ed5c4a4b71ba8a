import { AnomalyDirection, Severity } from '@agp/contracts';

import { DetectorSettings } from '../config/detector-settings';

/** How far the recent window is from its baseline. */
export interface Deviation {
  direction: AnomalyDirection;
  observed: number;
  /** Expected count in the window (for error rates: expected errors at the baseline rate). */
  expected: number;
  ratio: number;
  z: number;
}

/** Day-to-day variation that the few baseline days cannot show: 15 % of the level (M6). */
const LEVEL_NOISE = 0.15;

export function meanAndVariance(values: readonly number[]): { mean: number; variance: number } {
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  const variance =
    values.length > 1
      ? values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (values.length - 1)
      : 0;
  return { mean, variance };
}

/**
 * M6: a count in the window against the same window on the baseline days. `baseline` holds each
 * day's count scaled to the window; `exposure` is how many windows' worth each day covered (the
 * widened baseline window). The test is on square roots (Anscombe: a Poisson count's square root
 * has a standard deviation of one half, also for small counts) against a pessimistic bound of the
 * baseline: the Poisson confidence bound of its mean or one day-to-day standard deviation away,
 * whichever is further, plus the level noise. SPIKE also needs the volume guard and the ratio;
 * DROP the baseline volume guard and the ratio.
 */
export function assessCount(
  observed: number,
  baseline: readonly number[],
  settings: DetectorSettings,
  exposure = 1,
): Deviation | undefined {
  if (baseline.length === 0) {
    return undefined;
  }
  const { mean, variance } = meanAndVariance(baseline);
  const spread = Math.sqrt(variance);
  const windows = baseline.length * exposure;
  const events = mean * windows;
  const upper = (events + 1 + 2 * Math.sqrt(events + 1)) / windows;
  const lower = Math.max(0, events - 2 * Math.sqrt(events)) / windows;
  const high = Math.max(upper, mean + spread) * (1 + LEVEL_NOISE);
  const low = Math.max(0, Math.min(lower, mean - spread)) * (1 - LEVEL_NOISE);
  const ratio = observed / Math.max(mean, 1);
  const zUp = 2 * (Math.sqrt(observed) - Math.sqrt(high));
  if (observed >= settings.minVolume && ratio >= settings.spikeRatio && zUp >= settings.zScore) {
    return { direction: 'SPIKE', observed, expected: mean, ratio, z: zUp };
  }
  const dropRatio = observed / Math.max(mean, 1e-9);
  const zDown = 2 * (Math.sqrt(observed) - Math.sqrt(low));
  if (
    settings.dropRatio > 0 &&
    mean >= settings.minBaselineVolume &&
    dropRatio <= settings.dropRatio &&
    -zDown >= settings.zScore
  ) {
    return { direction: 'DROP', observed, expected: mean, ratio: dropRatio, z: zDown };
  }
  return undefined;
}

/** Below this the baseline error rate counts as this (a clean history still has some errors). */
const MIN_BASE_ERROR_RATE = 0.01;

/** M6: errors among calls now against the baseline error rate (binomial z-score). SPIKE only. */
export function assessErrorRate(
  errors: number,
  calls: number,
  baselineErrors: number,
  baselineCalls: number,
  settings: DetectorSettings,
): Deviation | undefined {
  if (calls < settings.minBaselineVolume || errors < settings.minVolume || baselineCalls <= 0) {
    return undefined;
  }
  const baseRate = Math.max(baselineErrors / baselineCalls, MIN_BASE_ERROR_RATE);
  const rate = errors / calls;
  const expected = calls * baseRate;
  const z = (errors - expected) / Math.sqrt(expected * (1 - baseRate));
  const ratio = rate / baseRate;
  if (rate * 100 >= settings.minRatePct && ratio >= settings.spikeRatio && z >= settings.zScore) {
    return { direction: 'SPIKE', observed: errors, expected, ratio, z };
  }
  return undefined;
}

/** M7: severity from the size of the deviation. */
export function severityOf(direction: AnomalyDirection, ratio: number): Severity {
  if (direction === 'SPIKE') {
    return ratio >= 10 ? 'CRITICAL' : ratio >= 5 ? 'HIGH' : ratio >= 3 ? 'MEDIUM' : 'LOW';
  }
  return ratio <= 0.05 ? 'CRITICAL' : ratio <= 0.15 ? 'HIGH' : ratio <= 0.3 ? 'MEDIUM' : 'LOW';
}

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
