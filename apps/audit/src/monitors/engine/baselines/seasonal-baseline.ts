import { NegativeBinomial } from './count-tests';

/** One baseline day of a subject: the same clock window `age` days ago, scaled to one window. */
export interface BaselineDay {
  age: number;
  perWindow: number;
  /** Of the same kind as the window judged (weekday or weekend, M6): the level comes from these. */
  sameKind: boolean;
  /** M43: a tenant's holiday at this clock time, left out of the subject's baseline. */
  isHoliday?: boolean;
  pieces?: number[];
}

/** What a subject's own history predicts for the window: level, trend and dispersion (M18). */
export interface SeasonalBaseline {
  level: number;
  /** The level projected to today along the subject's trend (equal to `level` without one). */
  projected: number;
  dispersion: number;
  levelUncertainty: number;
  projectionUncertainty: number;
}

/** Extra variance every subject is assumed to have at least (M6). */
export const MIN_DISPERSION = 0.15 ** 2;

/**
 * M89: M6's floor where a count's own Poisson noise is larger than it (M83's fading floor), for the
 * longer windows only: `MIN_DISPERSION × m / (m + 1 / MIN_DISPERSION)` for a window expecting m
 * events, half the floor at 44 events, the whole floor on busy windows. The floor stands for a level
 * that varies more than the baseline days showed; on a night's 40 events in two hours it added 90 %
 * of the Poisson variance again and held drops to an eighth at z −4.1 to −4.9 (M81). The own window
 * keeps the whole floor (M83's one false alarm there), and a longer window's finding still needs
 * M62's gate and M79's lean, which judge the recent minutes by the full model.
 */
export function fadingFloor(expected: number): number {
  const m = Math.max(0, expected);
  return (MIN_DISPERSION * m) / (m + 1 / MIN_DISPERSION);
}

/** Five baseline days cannot show a bursty subject's variability exactly. */
export function varianceBoundFactor(dof: number): number {
  const h = 2 / (9 * dof);
  const chi = dof * Math.max(0.01, 1 - h - 0.8416 * Math.sqrt(h)) ** 3;
  return dof / chi;
}

/** M18: the subject's expected count in the window from its baseline days. */
export function seasonalBaseline(
  allDays: readonly BaselineDay[],
  exposure: number,
  pieceExposure = exposure,
  robustDays = false,
  burstiness = 0,
  fadeFloor = false,
): SeasonalBaseline | undefined {
  const days = robustDays ? withoutOutlierDays(allDays, exposure, burstiness) : allDays;
  const same = days.filter((d) => d.sameKind);
  if (same.length === 0) {
    return undefined;
  }
  const groups = [same, days.filter((d) => !d.sameKind)].filter((g) => g.length > 0);
  const { stats, slope, sxx } = fitKinds(groups);
  const fitted = (d: BaselineDay, g: KindStats): number =>
    Math.max(0, g.mean * (1 + slope * (d.age - g.meanAge)));
  const dof = days.length - groups.length - (slope !== 0 ? 1 : 0);
  const target = stats[0];
  if (!target) {
    return undefined;
  }
  // With nothing counted, half an event over the baseline's windows: silence is not a rate of 0.
  const level = Math.max(target.mean, 0.5 / (exposure * target.days.length));
  const projected = Math.max(0, target.mean * (1 - slope * target.meanAge));
  const dispersion = extraDispersion(stats, fitted, dof, exposure, pieceExposure);
  // Day-to-day variation of a day's total beyond Poisson, relative to its level, over all days.
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
  const dayVariation =
    dof > 0 && scale > 0 ? (Math.max(0, residual - poisson) / scale) * (days.length / dof) : 0;
  const events = target.days.reduce((sum, d) => sum + d.perWindow, 0) * exposure;
  // The level's relative variance (M42, issue 17).
  let poissonSxx = 0;
  for (const g of stats) {
    for (const d of g.days) {
      poissonSxx += (d.age - g.meanAge) ** 2 / (g.mean * exposure + 0.5);
    }
  }
  const slopeVariance = sxx > 0 ? (dayVariation * sxx + poissonSxx) / sxx ** 2 : 0;
  const distance = slope !== 0 ? target.meanAge ** 2 : 0;
  const n = target.days.length;
  const levelUncertainty = dayVariation / n + 1 / (events + 0.5);
  return {
    level,
    projected,
    dispersion: Math.max(dispersion, fadeFloor ? fadingFloor(level) : MIN_DISPERSION),
    levelUncertainty,
    projectionUncertainty: levelUncertainty + distance * slopeVariance,
  };
}

// M41 also leaves such days out when it weighs which week a subject lives by (the level itself
// keeps them) (M30).
export function withoutOutlierDays<T extends Pick<BaselineDay, 'perWindow' | 'sameKind'>>(
  days: readonly T[],
  exposure: number,
  burstiness = 0,
): readonly T[] {
  const kept = days.filter(
    (day) => Math.abs(modifiedZ(day, days, exposure, burstiness)) <= OUTLIER_Z,
  );
  return kept.length < days.length ? kept : days;
}

// M43: the days far below the other days of their kind by M30's rule (a tenant's holiday: a weekday
// at a weekend's level).
export function lowOutlierDays<T extends Pick<BaselineDay, 'perWindow' | 'sameKind'>>(
  days: readonly T[],
  exposure: number,
): T[] {
  return days.filter((day) => modifiedZ(day, days, exposure) < -OUTLIER_Z);
}

/**
 * M30's modified z-score of a day among the days of its kind (0 for a kind of fewer than three), its
 * MAD at least a day's own noise: Poisson, and (M78) the bursts of `burstiness` (M40's squared
 * coefficient of variation of one window) spread over the day's `exposure` windows, so that a low,
 * bursty tenant's busy day is not taken for an earlier anomaly and cut away.
 */
function modifiedZ<T extends Pick<BaselineDay, 'perWindow' | 'sameKind'>>(
  day: T,
  days: readonly T[],
  exposure: number,
  burstiness = 0,
): number {
  const kind = days.filter((d) => d.sameKind === day.sameKind);
  if (kind.length < 3) {
    return 0;
  }
  const values = kind.map((d) => d.perWindow);
  const center = median(values);
  const mad = median(values.map((v) => Math.abs(v - center)));
  const events = Math.max(center, 0) * exposure;
  const noise = Math.sqrt(events + (burstiness / Math.max(exposure, 1)) * events ** 2) / exposure;
  const scale = Math.max(mad, 0.6745 * noise);
  return scale <= 0 ? 0 : (0.6745 * (day.perWindow - center)) / scale;
}

/** Iglewicz and Hoaglin's cut on the modified z-score (M30). */
const OUTLIER_Z = 3.5;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export interface KindStats<T = BaselineDay> {
  days: T[];
  meanAge: number;
  mean: number;
}

/** M18's fit of baseline days in kinds. */
export function fitKinds<T extends Pick<BaselineDay, 'age' | 'perWindow'>>(
  groups: readonly T[][],
): { stats: Array<KindStats<T>>; slope: number; sxx: number } {
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
      sxy += g.mean > 0 ? (d.age - g.meanAge) * (d.perWindow / g.mean - 1) : 0;
    }
  }
  const days = groups.reduce((n, g) => n + g.length, 0);
  const slope = sxx > 0 && days - groups.length - 1 >= 1 ? sxy / sxx : 0;
  return { stats, slope, sxx };
}

function extraDispersion(
  stats: KindStats[],
  fitted: (d: BaselineDay, g: KindStats) => number,
  dayDof: number,
  exposure: number,
  pieceExposure: number,
): number {
  const withPieces = stats.every((g) => g.days.every((d) => (d.pieces?.length ?? 0) > 1));
  let residual = 0;
  let poisson = 0;
  let scale = 0;
  let samples = 0;
  for (const g of stats) {
    for (const d of g.days) {
      const fit = fitted(d, g);
      const values = withPieces ? (d.pieces ?? []) : [d.perWindow];
      const each = withPieces ? pieceExposure : exposure;
      for (const value of values) {
        residual += (value - fit) ** 2;
        poisson += fit / each;
        scale += fit * fit;
        samples += 1;
      }
    }
  }
  const dof = withPieces ? samples - (stats.length + (samples > 0 ? 1 : 0)) : dayDof;
  if (dof <= 0 || scale <= 0) {
    return 0;
  }
  const perSample = Math.max(0, residual - poisson) / scale;
  if (withPieces && pieceExposure < 1) {
    // M77: a piece shorter than the window carries more of the bursts than the window does.
    return windowDispersion(stats, fitted, pieceExposure, perSample) * varianceBoundFactor(dof);
  }
  return perSample * Math.max(1, withPieces ? pieceExposure : exposure) * varianceBoundFactor(dof);
}

// M77: the pieces' extra variance beyond the clock's rhythm across them (the same every day, each
// position's mean residual: what the rhythm moves inside a widened window is no noise of the
// window's), split into the bursts inside a day (what a day's pieces do around the day's own level,
// B of a piece) and the level's from day to day (L, the rest), so that the window's is
// L + B × (a piece's minutes / the window's): over a window of n pieces' length the bursts average
// out as M40's quarters do, the level does not.
function windowDispersion(
  stats: KindStats[],
  fitted: (d: BaselineDay, g: KindStats) => number,
  pieceExposure: number,
  perSample: number,
): number {
  const rows: Array<{ fit: number; rel: number[] }> = [];
  for (const g of stats) {
    for (const d of g.days) {
      const fit = fitted(d, g);
      if (fit > 0) {
        rows.push({ fit, rel: (d.pieces ?? []).map((v) => v / fit - 1) });
      }
    }
  }
  const k = Math.min(...rows.map((r) => r.rel.length));
  if (rows.length < 2 || k < 2) {
    return perSample;
  }
  const position = Array.from(
    { length: k },
    (_, j) => rows.reduce((sum, r) => sum + (r.rel[j] ?? 0), 0) / rows.length,
  );
  const positionMean = position.reduce((sum, m) => sum + m, 0) / k;
  let total = 0;
  let within = 0;
  let poisson = 0;
  let scale = 0;
  for (const { fit, rel } of rows) {
    const level = rel.slice(0, k).reduce((sum, r) => sum + r, 0) / k;
    for (let j = 0; j < k; j += 1) {
      const beyondRhythm = (rel[j] ?? 0) - ((position[j] ?? 0) - positionMean);
      total += (beyondRhythm * fit) ** 2;
      within += ((beyondRhythm - level) * fit) ** 2;
      poisson += fit / pieceExposure;
      scale += fit * fit;
    }
  }
  // The positions take k − 1 degrees of freedom from the pieces, each day's level one more.
  const samples = rows.length * k;
  const totalShare = (samples - (k - 1)) / samples;
  const withinShare = (rows.length * (k - 1) - (k - 1)) / samples;
  if (withinShare <= 0) {
    return perSample;
  }
  const all = Math.max(0, total / totalShare - poisson) / scale;
  const bursts = Math.max(0, within / withinShare - poisson) / scale;
  return Math.max(0, all - bursts) + bursts * pieceExposure;
}

export function expectedCount(
  baseline: SeasonalBaseline,
  direction: 'SPIKE' | 'DROP',
): NegativeBinomial {
  // A growing subject is judged against its projection, a shrinking one against its level (and
  // the other way round for drops): a trend can excuse a change, never make one.
  const useProjection =
    direction === 'SPIKE'
      ? baseline.projected > baseline.level
      : baseline.projected < baseline.level;
  const mean = useProjection ? baseline.projected : baseline.level;
  const uncertainty = useProjection ? baseline.projectionUncertainty : baseline.levelUncertainty;
  return { mean, size: 1 / (baseline.dispersion + uncertainty) };
}
