import { NegativeBinomial } from './count-tests';

/** One baseline day of a subject: the same clock window `age` days ago, scaled to one window. */
export interface BaselineDay {
  age: number;
  /** Count of the widened baseline window divided by `exposure` (windows' worth). */
  perWindow: number;
  /** Of the same kind as the window judged (weekday or weekend, M6): the level comes from these. */
  sameKind: boolean;
}

/** What a subject's own history predicts for the window: level, trend and dispersion (M18). */
export interface SeasonalBaseline {
  /** The mean of the same-kind days (what the evidence calls the baseline). */
  level: number;
  /** The level projected to today along the subject's trend (equal to `level` without one). */
  projected: number;
  /**
   * Squared coefficient of variation of one window beyond Poisson: the subject's own burstiness
   * (pessimistic: every extra variance of a day counted as the window's) plus the uncertainty of
   * the level itself.
   */
  dispersion: number;
}

/**
 * Extra variance every subject is assumed to have at least: 15 % from window to window (day-to-day
 * level noise the few baseline days cannot show, M6's "level noise").
 */
export const MIN_DISPERSION = 0.15 ** 2;

/**
 * Upper 80 % bound of a variance estimated with `dof` degrees of freedom, as a factor of the
 * estimate: dof / χ²(0.2, dof), χ² by Wilson–Hilferty. Five baseline days cannot show a bursty
 * subject's variability exactly; a pessimistic estimate keeps its ordinary bursts quiet.
 */
export function varianceBoundFactor(dof: number): number {
  const h = 2 / (9 * dof);
  const chi = dof * Math.max(0.01, 1 - h - 0.8416 * Math.sqrt(h)) ** 3;
  return dof / chi;
}

/**
 * M18: the subject's expected count in the window from its baseline days. Level: the mean of the
 * same-kind days. Trend: one slope per day shared by both kinds (each kind keeps its own level), by
 * least squares over every baseline day, so weekdays also give the trend of a weekend. Dispersion:
 * the residual variance around that fit beyond what Poisson counts explain, relative to the level,
 * pooled over all days, bounded from above for the few degrees of freedom, and the level's own
 * uncertainty (a projection far from the days it rests on is less certain) added on top.
 */
export function seasonalBaseline(
  days: readonly BaselineDay[],
  exposure: number,
): SeasonalBaseline | undefined {
  const same = days.filter((d) => d.sameKind);
  if (same.length === 0) {
    return undefined;
  }
  const groups = [same, days.filter((d) => !d.sameKind)].filter((g) => g.length > 0);
  const stats = groups.map((g) => ({
    days: g,
    meanAge: g.reduce((s, d) => s + d.age, 0) / g.length,
    mean: g.reduce((s, d) => s + d.perWindow, 0) / g.length,
  }));
  let sxx = 0;
  let sxy = 0;
  for (const g of stats) {
    for (const d of g.days) {
      sxx += (d.age - g.meanAge) ** 2;
      sxy += (d.age - g.meanAge) * (d.perWindow - g.mean);
    }
  }
  const dofTrend = days.length - groups.length - 1;
  const slope = sxx > 0 && dofTrend >= 1 ? sxy / sxx : 0;
  const fitted = (d: BaselineDay, g: (typeof stats)[number]): number =>
    Math.max(0, g.mean + slope * (d.age - g.meanAge));
  const dof = days.length - groups.length - (slope !== 0 ? 1 : 0);
  const target = stats[0];
  if (!target) {
    return undefined;
  }
  const level = target.mean;
  // Age 0 is today: the projection of the same-kind level along the slope.
  const projected = Math.max(0, level - slope * target.meanAge);
  let residual = 0;
  let poisson = 0;
  let scale = 0;
  for (const g of stats) {
    for (const d of g.days) {
      const fit = fitted(d, g);
      residual += (d.perWindow - fit) ** 2;
      poisson += fit / exposure;
      scale += fit * fit;
    }
  }
  const residualVariance = dof > 0 ? residual / dof : 0;
  const extra =
    dof > 0 && scale > 0
      ? (Math.max(0, residual - poisson) / scale) * exposure * varianceBoundFactor(dof)
      : 0;
  const centre = Math.max(level, projected, 1e-9);
  // Variance of the projected level: σ²(1/n + (age distance)² / Sxx), relative to the level.
  const levelVariance =
    dof > 0
      ? residualVariance *
        (1 / target.days.length + (slope !== 0 && sxx > 0 ? target.meanAge ** 2 / sxx : 0))
      : centre / (exposure * target.days.length);
  return {
    level,
    projected,
    dispersion: Math.max(extra, MIN_DISPERSION) + levelVariance / centre ** 2,
  };
}

/** The count the window should hold, pessimistic for the direction tested. */
export function expectedCount(
  baseline: SeasonalBaseline,
  direction: 'SPIKE' | 'DROP',
): NegativeBinomial {
  // A growing subject is judged against its projection, a shrinking one against its level (and
  // the other way round for drops): a trend can excuse a change, never make one.
  const mean =
    direction === 'SPIKE'
      ? Math.max(baseline.level, baseline.projected)
      : Math.min(baseline.level, baseline.projected);
  return { mean, size: 1 / baseline.dispersion };
}
