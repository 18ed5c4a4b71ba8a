import { varianceBoundFactor } from './seasonal-baseline';

/** M40: a subject's burstiness from its whole lookback, not from one clock window (M32). */
export interface QuarterPairs {
  pairs: number;
  excess: number;
  scale: number;
}

/** The quarter hour M40's pairs are cut to: the default window of the count detectors (M6). */
export const QUARTER_MINUTES = 15;

/** A day needs this many pairs (a third of its hours) for an estimate of its own. */
const MIN_DAY_PAIRS = 16;
/** Fewer days with an estimate say too little of a subject's bursts (a median needs a majority). */
const MIN_DAYS = 4;

export const NO_PAIRS: QuarterPairs = { pairs: 0, excess: 0, scale: 0 };

export function quarterPairsOf(hours: ReadonlyArray<readonly number[]>): QuarterPairs {
  let pairs = 0;
  let excess = 0;
  let scale = 0;
  for (const quarters of hours) {
    for (let q = 2; q < quarters.length; q += 1) {
      const a = quarters[q - 2] ?? 0;
      const b = quarters[q] ?? 0;
      pairs += 1;
      excess += (a - b) ** 2 - (a + b);
      scale += 2 * a * b;
    }
  }
  return { pairs, excess, scale };
}

export function addPairs(x: QuarterPairs, y: QuarterPairs): QuarterPairs {
  return { pairs: x.pairs + y.pairs, excess: x.excess + y.excess, scale: x.scale + y.scale };
}

// The squared coefficient of variation beyond Poisson of a `windowMinutes` window's count, from the
// lookback's quarter pairs summed per day (24 hours back from the read's end; 0 when they say
// nothing): the median of the days' own estimates, so that the edges of an earlier anomaly (a
// failover storm, an error burst: a few pairs far apart) make one or two days' estimate large and
// not the subject's; bounded from above for a day's pairs as M18 bounds a variance (which also
// makes up for the median of a right-skewed estimate falling below its mean); scaled to the window
// as independent quarters add up (15 / `windowMinutes`; a window shorter than a quarter is given
// the quarter's scaled up, which overstates it: the safe side for a test of counts).
export function historyDispersion(days: readonly QuarterPairs[], windowMinutes: number): number {
  const estimates = days
    .filter((d) => d.pairs >= MIN_DAY_PAIRS && d.scale > 0)
    .map((d) => ({ phi: d.excess / d.scale, pairs: d.pairs }))
    .sort((a, b) => a.phi - b.phi);
  if (estimates.length < MIN_DAYS) {
    return 0;
  }
  const mid = estimates.length / 2;
  const median =
    estimates.length % 2 === 1
      ? (estimates[Math.floor(mid)]?.phi ?? 0)
      : ((estimates[mid - 1]?.phi ?? 0) + (estimates[mid]?.phi ?? 0)) / 2;
  const perDay = estimates.reduce((sum, e) => sum + e.pairs, 0) / estimates.length;
  const perQuarter = Math.max(0, median) * varianceBoundFactor(perDay);
  return (perQuarter * QUARTER_MINUTES) / windowMinutes;
}
