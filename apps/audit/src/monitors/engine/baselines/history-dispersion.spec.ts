import { QuarterPairs, historyDispersion, quarterPairsOf } from './history-dispersion';
import { varianceBoundFactor } from './seasonal-baseline';

/** A week of days, each of 24 hour rows with the same four quarter counts, summed per day. */
function week(quarters: number[]): QuarterPairs[] {
  return Array.from({ length: 7 }, () =>
    quarterPairsOf(Array.from({ length: 24 }, () => quarters)),
  );
}

describe('quarterPairsOf', () => {
  it('should sum the two pairs of quarters half an hour apart of each hour', () => {
    // (4, 10), (6, 0): excess (36 − 14) + (36 − 6), scale 2 (40 + 0).
    expect(quarterPairsOf([[4, 6, 10, 0]])).toEqual({ pairs: 2, excess: 52, scale: 80 });
  });
});

describe('historyDispersion', () => {
  it('should find nothing beyond Poisson in a smooth subject', () => {
    // Equal quarters: every pair's (a − b)² is 0 and its Poisson part negative, no excess.
    expect(historyDispersion(week([20, 20, 20, 20]), 15)).toBe(0);
  });

  it('should read a bursty subject’s squared coefficient of variation per quarter', () => {
    // Half-hours alternating 5 and 35 (mean 20): (a − b)² − (a + b) = 900 − 40 = 860 a pair,
    // 2ab = 350: φ = 860 / 350 ≈ 2.46 per quarter each day, bounded for a day's 48 pairs.
    const days = week([5, 5, 35, 35]);
    expect(days[0]?.pairs).toBe(48);
    expect(historyDispersion(days, 15)).toBeCloseTo((860 / 350) * varianceBoundFactor(48), 10);
  });

  it('should not mistake a burst shared by neighbouring quarters for calm', () => {
    // A burst across the boundary of the first two quarters: neighbours alike, but the quarters
    // half an hour apart differ, and they are the pairs read.
    expect(historyDispersion(week([35, 35, 5, 5]), 15)).toBeGreaterThan(2);
  });

  it('should not let one day’s anomaly make a smooth subject bursty', () => {
    // Six smooth days and one with a failover storm's edges: the median day is smooth.
    const storm = quarterPairsOf([
      ...Array.from({ length: 22 }, () => [1, 1, 1, 1]),
      [1, 1, 31, 31],
      [31, 31, 1, 1],
    ]);
    const days = [...week([1, 1, 1, 1]).slice(0, 6), storm];
    expect(historyDispersion([storm], 15)).toBe(0);
    expect(historyDispersion(days, 15)).toBe(0);
  });

  it('should scale to the window as independent quarters add up', () => {
    const days = week([5, 5, 35, 35]);
    expect(historyDispersion(days, 60)).toBeCloseTo(historyDispersion(days, 15) / 4, 12);
  });

  it('should say nothing from fewer than four days with pairs enough', () => {
    expect(historyDispersion(week([5, 5, 35, 35]).slice(0, 3), 15)).toBe(0);
  });
});
