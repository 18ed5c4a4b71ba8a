import {
  BaselineDay,
  MIN_DISPERSION,
  expectedCount,
  fadingFloor,
  seasonalBaseline,
  varianceBoundFactor,
  lowOutlierDays,
  withoutOutlierDays,
} from './seasonal-baseline';

function day(age: number, perWindow: number, sameKind = true): BaselineDay {
  return { age, perWindow, sameKind };
}

describe('seasonalBaseline', () => {
  it('should keep the minimum dispersion for a steady Poisson subject', () => {
    // Five identical days: no variance beyond Poisson, no trend; the level's own uncertainty is
    // that of the 45 events it rests on, 1 / (45 + ½).
    const baseline = seasonalBaseline(
      [1, 2, 3, 4, 5].map((age) => day(age, 9)),
      1,
    );
    expect(baseline).toEqual({
      level: 9,
      projected: 9,
      dispersion: MIN_DISPERSION,
      levelUncertainty: 1 / 45.5,
      projectionUncertainty: 1 / 45.5,
    });
  });

  it('should fade the floor on few events when asked, for the longer windows (M89)', () => {
    // A night's two hours: 40 events on each of five days, no variance beyond Poisson.
    const days = [1, 2, 3, 4, 5].map((age) => day(age, 40));
    expect(seasonalBaseline(days, 1)?.dispersion).toBe(MIN_DISPERSION);
    const faded = seasonalBaseline(days, 1, 1, false, 0, true)?.dispersion ?? 0;
    expect(faded).toBeCloseTo((MIN_DISPERSION * 40) / (40 + 1 / MIN_DISPERSION), 12);
    expect(faded).toBeLessThan(MIN_DISPERSION / 2);
    // Half the floor at 44 events, nearly all of it on a busy window.
    expect(fadingFloor(1 / MIN_DISPERSION)).toBeCloseTo(MIN_DISPERSION / 2, 12);
    expect(fadingFloor(4000)).toBeGreaterThan(0.98 * MIN_DISPERSION);
  });

  it('should not take silence for a rate of zero', () => {
    // Nothing in five days of four windows each: half an event over those 20 windows.
    const baseline = seasonalBaseline(
      [1, 2, 3, 4, 5].map((age) => day(age, 0)),
      4,
    );
    expect(baseline?.level).toBeCloseTo(0.025, 12);
    expect(baseline?.dispersion).toBe(MIN_DISPERSION);
    expect(baseline?.levelUncertainty).toBeCloseTo(2, 12);
  });

  it('should see the bursts inside steady days in the pieces of each day', () => {
    // Every day totals 100 per window, but its four windows swing 20, 180, 20, 180: residuals of
    // 80² per piece (20 pieces less level and slope: 18 degrees of freedom), Poisson part 100 each.
    const bursty = [1, 2, 3, 4, 5].map((age) => ({ ...day(age, 100), pieces: [20, 180, 20, 180] }));
    const smooth = [1, 2, 3, 4, 5].map((age) => ({
      ...day(age, 100),
      pieces: [100, 100, 100, 100],
    }));
    const perPiece = ((20 * 6_400 - 20 * 100) / (20 * 100 ** 2)) * varianceBoundFactor(18);
    expect(seasonalBaseline(bursty, 4, 1)?.dispersion).toBeCloseTo(perPiece, 10);
    expect(seasonalBaseline(smooth, 4, 1)?.dispersion).toBe(MIN_DISPERSION);
  });

  it('should spread the bursts inside a day over a window longer than a piece (M77)', () => {
    // Every day at 10,000 per window (Poisson negligible), its pieces swinging 6,000, 14,000 in
    // turn, odd days starting low and even days high (so the clock's rhythm across the pieces is
    // nothing): the extra variance is bursts inside the day, none of it the level's. Judged over a
    // window four pieces long, the bursts count a quarter as much as over a window of one piece.
    const bursty = [1, 2, 3, 4, 5, 6].map((age) => ({
      ...day(age, 10_000),
      pieces: age % 2 === 1 ? [6_000, 14_000, 6_000, 14_000] : [14_000, 6_000, 14_000, 6_000],
    }));
    const perPiece = seasonalBaseline(bursty, 1, 1)?.dispersion ?? 0;
    const perWindow = seasonalBaseline(bursty, 1, 0.25)?.dispersion ?? 0;
    expect(perPiece).toBeGreaterThan(0.16);
    expect(perWindow).toBeGreaterThan(0.2 * perPiece);
    expect(perWindow).toBeLessThan(0.5 * perPiece);
  });

  it('should keep the level’s variation from day to day whole over a longer window (M77)', () => {
    // The pieces of each day are equal, the days 6,000 or 14,000: the variation is the level's,
    // which a longer window does not average out.
    const levels = [1, 2, 3, 4, 5, 6].map((age) => {
      const v = age % 2 === 1 ? 6_000 : 14_000;
      return { ...day(age, v), pieces: [v, v, v, v] };
    });
    const perPiece = seasonalBaseline(levels, 1, 1)?.dispersion ?? 0;
    const perWindow = seasonalBaseline(levels, 1, 0.25)?.dispersion ?? 0;
    expect(perPiece).toBeGreaterThan(0.1);
    expect(perWindow).toBeGreaterThan(0.97 * perPiece);
  });

  it('should carry a bursty subject’s own dispersion, bounded for five days', () => {
    // Mean 98, no slope (Σ(age − 3)(x − 98) = 76 − 52 + 32 − 56 = 0), squared residuals 6,280
    // over 4 degrees of freedom, Poisson part 5 × 98, scale 5 × 98².
    const values = [60, 150, 80, 130, 70];
    const baseline = seasonalBaseline(
      values.map((v, i) => day(i + 1, v)),
      1,
    );
    const extra = ((6_280 - 490) / 48_020) * varianceBoundFactor(4);
    // The level's uncertainty: the days' relative extra variance over five days, plus Poisson.
    const levelUncertainty = (((6_280 - 490) / 48_020) * (5 / 4)) / 5 + 1 / 490.5;
    expect(baseline?.level).toBe(98);
    expect(baseline?.projected).toBe(98);
    expect(baseline?.dispersion).toBeCloseTo(extra, 10);
    expect(baseline?.levelUncertainty).toBeCloseTo(levelUncertainty, 10);
  });

  it('should project a steady trend to today, with weekdays giving the weekend its slope', () => {
    // Weekdays 1..5 days ago at 50, 45, 40, 35, 30: 12.5 % of their level (40) less per day of
    // age. Last weekend's two days sit at a level of their own (12.5) on the same relative slope.
    // Today's weekday level, 40 at a mean age of 3, projects to 40 × (1 + 3 × 0.125) = 55.
    const days = [
      day(1, 50),
      day(2, 45),
      day(3, 40),
      day(4, 35),
      day(5, 30),
      day(6, 12.5 * 1.0625, false),
      day(7, 12.5 * 0.9375, false),
    ];
    const baseline = seasonalBaseline(days, 4);
    expect(baseline?.level).toBeCloseTo(40, 10);
    expect(baseline?.projected).toBeCloseTo(55, 10);
    expect(expectedCount(baseline!, 'SPIKE').mean).toBeCloseTo(55, 10);
    expect(expectedCount(baseline!, 'DROP').mean).toBeCloseTo(40, 10);
  });

  it('should have no baseline without a day of the same kind', () => {
    expect(seasonalBaseline([day(1, 5, false)], 1)).toBeUndefined();
  });
});

describe('varianceBoundFactor', () => {
  it('should be the 80 % upper bound of a variance: about 2.4 for four degrees of freedom', () => {
    // χ²(0.2, 4) = 1.649, so 4 / 1.649 = 2.43 (Wilson–Hilferty within 1 %).
    expect(varianceBoundFactor(4)).toBeCloseTo(2.43, 1);
    expect(varianceBoundFactor(30)).toBeLessThan(1.3);
  });
});

describe('withoutOutlierDays', () => {
  it('should leave out a day that an earlier anomaly lifted far above the other days', () => {
    // The tenant's warnings at 06:00 on five weekdays, one lifted by a policy's spike (M30).
    const days = [77, 44, 47, 45, 48].map((v, i) => day(i + 1, v));
    expect(withoutOutlierDays(days, 4).map((d) => d.perWindow)).toEqual([44, 47, 45, 48]);
    // Without the lifted day the level is the other days' and a later spike stands out.
    expect(seasonalBaseline(days, 4, 4, true)?.level).toBe(46);
    expect(seasonalBaseline(days, 4)?.level).toBeCloseTo(52.2, 10);
  });

  it('should keep days that differ no more than a day’s Poisson noise', () => {
    // Days close by chance make the MAD 1, which would call a day 7 away an outlier (0.6745 × 7
    // = 4.7); a day's Poisson noise, √(45 × 4) / 4 ≈ 3.4, says 7 is ordinary (modified z 2.1).
    const days = [44, 45, 45, 46, 52].map((v, i) => day(i + 1, v));
    expect(withoutOutlierDays(days, 4)).toBe(days);
  });

  it('should keep a bursty tenant’s busy day when its bursts explain it (M78)', () => {
    // A low tenant's holds at one clock time: four days about 10, one at 22. By Poisson alone
    // (√(10 × 4) / 4 ≈ 1.6) 22 is an outlier; with a window's bursts at φ 0.6 the day's noise is
    // √(40 + 0.15 × 40²) / 4 ≈ 4.2 and 22 is an ordinary busy day (modified z 1.9).
    const days = [10, 9, 11, 10, 22].map((v, i) => day(i + 1, v));
    expect(withoutOutlierDays(days, 4).map((d) => d.perWindow)).toEqual([10, 9, 11, 10]);
    expect(withoutOutlierDays(days, 4, 0.6)).toBe(days);
    // A day lifted far beyond the bursts still goes.
    const lifted = [10, 9, 11, 10, 60].map((v, i) => day(i + 1, v));
    expect(withoutOutlierDays(lifted, 4, 0.6).map((d) => d.perWindow)).toEqual([10, 9, 11, 10]);
  });

  it('should leave a kind with two days alone', () => {
    const days = [
      day(1, 10, false),
      day(2, 90, false),
      ...[45, 44, 46].map((v, i) => day(i + 3, v)),
    ];
    expect(withoutOutlierDays(days, 4)).toBe(days);
  });
});

describe('lowOutlierDays', () => {
  it('should find a weekday at a weekend’s level, not a day lifted by an anomaly', () => {
    // The tenant's requests on five weekdays at this clock time: a holiday at a third (M43), and
    // a day lifted by a spike, which is an outlier too but not a holiday.
    const days = [300, 310, 100, 295, 305].map((v, i) => day(i + 1, v));
    expect(lowOutlierDays(days, 4).map((d) => d.age)).toEqual([3]);
    const lifted = [300, 310, 900, 295, 305].map((v, i) => day(i + 1, v));
    expect(lowOutlierDays(lifted, 4)).toEqual([]);
  });
});
