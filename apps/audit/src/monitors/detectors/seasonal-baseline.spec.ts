import {
  BaselineDay,
  MIN_DISPERSION,
  expectedCount,
  seasonalBaseline,
  varianceBoundFactor,
} from './seasonal-baseline';

function day(age: number, perWindow: number, sameKind = true): BaselineDay {
  return { age, perWindow, sameKind };
}

describe('seasonalBaseline', () => {
  it('should keep the minimum dispersion for a steady Poisson subject', () => {
    // Five identical days: no variance beyond Poisson, no trend; the level's own uncertainty is
    // the residual variance (0) over five days.
    const baseline = seasonalBaseline(
      [1, 2, 3, 4, 5].map((age) => day(age, 9)),
      1,
    );
    expect(baseline).toEqual({ level: 9, projected: 9, dispersion: MIN_DISPERSION });
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
    const levelUncertainty = 6_280 / 4 / 5 / 98 ** 2;
    expect(baseline?.level).toBe(98);
    expect(baseline?.projected).toBe(98);
    expect(baseline?.dispersion).toBeCloseTo(extra + levelUncertainty, 10);
  });

  it('should project a steady trend to today, with weekdays giving the weekend its slope', () => {
    // Weekdays 1..5 days ago at 50, 45, 40, 35, 30 and last weekend's two days at a level of
    // their own, 15 and 10: the shared slope is −5 per day of age (Σxy −50 − 2.5 over Σxx
    // 10 + 0.5), so today's weekday level, 40 at a mean age of 3, projects to 55.
    const days = [
      day(1, 50),
      day(2, 45),
      day(3, 40),
      day(4, 35),
      day(5, 30),
      day(6, 15, false),
      day(7, 10, false),
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
