import { AnomalyDirection, Severity } from '@agp/contracts';

import { DetectorSettings } from '../detector-settings';
import {
  betaBinomialTail,
  negativeBinomialLower,
  negativeBinomialUpper,
  normalEquivalent,
  normalUpper,
} from './count-tests';
import { learnedDayKinds } from './day-kinds';
import {
  BaselineDay,
  MIN_DISPERSION,
  expectedCount,
  seasonalBaseline,
  varianceBoundFactor,
} from './seasonal-baseline';

export interface Deviation {
  direction: AnomalyDirection;
  observed: number;
  /** Expected count in the window (for error rates: expected errors at the baseline rate). */
  expected: number;
  ratio: number;
  z: number;
}

// M17: the window's count against the subject's own seasonal baseline (M18), judged by how unlikely
// it is: a negative binomial tail with the subject's dispersion, so 180 events against 9 expected
// is an anomaly at any volume and three times the usual on a naturally bursty subject is not (M40,
// M41).
export function assessCount(
  observed: number,
  days: readonly BaselineDay[],
  settings: DetectorSettings,
  exposure = 1,
  robustDays = false,
  own: { dispersion: number; weekday: number; fadeFloor?: boolean } = {
    dispersion: 0,
    weekday: -1,
  },
): Deviation | undefined {
  const historyDispersion = own.dispersion;
  const pieces = days[0]?.pieces?.length ?? 0;
  // M41: the subject's own week decides which days are of the window's kind; M43: the tenant's
  // holidays are no baseline (unless nothing of the window's kind is left without them).
  const kinds =
    own.weekday >= 0 ? learnedDayKinds(days, exposure, historyDispersion, own.weekday) : days;
  const workdays = kinds.filter((d) => !d.isHoliday);
  const seasonal = seasonalBaseline(
    workdays.some((d) => d.sameKind) ? workdays : kinds,
    exposure,
    pieces > 1 ? exposure / pieces : exposure,
    robustDays,
    historyDispersion,
    own.fadeFloor,
  );
  if (!seasonal) {
    return undefined;
  }
  // M40: one clock window's pieces can miss a subject's bursts; its whole lookback does not.
  const baseline = { ...seasonal, dispersion: Math.max(seasonal.dispersion, historyDispersion) };
  const cut = normalUpper(settings.zScore);
  const up = expectedCount(baseline, 'SPIKE');
  const ratio = observed / Math.max(up.mean, 1);
  if (ratio >= settings.spikeRatio) {
    const p = negativeBinomialUpper(observed, up);
    if (p <= cut) {
      return { direction: 'SPIKE', observed, expected: up.mean, ratio, z: normalEquivalent(p) };
    }
  }
  if (settings.dropRatio > 0) {
    const down = expectedCount(baseline, 'DROP');
    const dropRatio = observed / Math.max(down.mean, 1e-9);
    if (dropRatio <= settings.dropRatio) {
      const p = negativeBinomialLower(observed, down);
      if (p <= cut) {
        return {
          direction: 'DROP',
          observed,
          expected: down.mean,
          ratio: dropRatio,
          z: -normalEquivalent(p),
        };
      }
    }
  }
  return undefined;
}

export interface ShareDay {
  hits: number;
  trials: number;
  /** Of the window's kind (M6): the share comes from these, its variation from every day. */
  sameKind?: boolean;
}

// M19: a share among calls (errors among an MCP server's requests, warnings among a policy's
// invocations) against the subject's baseline share, judged by a beta-binomial tail: the binomial
// of the window's calls, with the share itself varying as much as it did from day to day (and at
// least `MIN_DISPERSION` relative) and as uncertain as the baseline's calls leave it.
export function assessShare(
  hits: number,
  trials: number,
  days: readonly ShareDay[],
  settings: DetectorSettings,
  prior?: SharePrior,
): Deviation | undefined {
  const calls = Math.max(trials, hits);
  const { share, baseTrials } = baselineShare(days, prior);
  if (calls === 0 || baseTrials === 0) {
    return undefined;
  }
  // Two weekend days alone cannot show how much the share varies: every day of the lookback does.
  const allHits = days.reduce((s, d) => s + d.hits, 0);
  const allTrials = days.reduce((s, d) => s + Math.max(d.trials, d.hits), 0);
  const rho = Math.max(
    shareDispersion(days, (allHits + 0.5) / (allTrials + 1)),
    (MIN_DISPERSION * share) / (1 - share),
  );
  // Var(share) / (p(1 − p)) = 1 / (κ + 1): its day-to-day variation plus the baseline's uncertainty.
  const kappa = 1 / (rho + 1 / (baseTrials + 1)) - 1;
  if (kappa <= 0) {
    return undefined;
  }
  const dist = { trials: calls, alpha: share * kappa, beta: (1 - share) * kappa };
  const expected = calls * share;
  const ratio = hits / calls / share;
  const cut = normalUpper(settings.zScore);
  if (ratio >= settings.spikeRatio && (100 * hits) / calls >= settings.minRatePct) {
    const p = betaBinomialTail(hits, dist, true);
    if (p <= cut) {
      return { direction: 'SPIKE', observed: hits, expected, ratio, z: normalEquivalent(p) };
    }
  }
  if (settings.dropRatio > 0 && ratio <= settings.dropRatio) {
    const p = betaBinomialTail(hits, dist, false);
    if (p <= cut) {
      return { direction: 'DROP', observed: hits, expected, ratio, z: -normalEquivalent(p) };
    }
  }
  return undefined;
}

// Intra-class correlation ρ of the baseline days' shares (beta-binomial: Var(hits) = n p (1 − p)(1
// + (n − 1) ρ)) from Pearson's dispersion statistic, bounded from above for the few days, and at
// least the share's `MIN_DISPERSION` relative variation.
export function shareDispersion(days: readonly ShareDay[], share: number): number {
  const used = days.filter((d) => d.trials > 0);
  const floor = (MIN_DISPERSION * share) / (1 - share);
  if (used.length < 2) {
    return floor;
  }
  const pq = share * (1 - share);
  const pearson = used.reduce((s, d) => s + (d.hits - share * d.trials) ** 2 / (pq * d.trials), 0);
  const dof = used.length - 1;
  // Under the binomial each day adds 2 + (1 − 6pq)/(npq) to Pearson's variance.
  const noise =
    used.reduce((s, d) => s + 2 + (1 - 6 * pq) / (pq * d.trials), 0) * (dof / used.length);
  const excess = Math.max(0, pearson - dof - Math.sqrt(Math.max(noise, 0)));
  const phi = 1 + (excess / dof) * varianceBoundFactor(dof);
  const meanTrials = used.reduce((s, d) => s + d.trials, 0) / used.length;
  const rho = meanTrials > 1 ? (phi - 1) / (meanTrials - 1) : 0;
  return Math.max(rho, floor);
}

/** Two-proportion z above which the window's kind of day (M6) keeps its own share. */
const SHARE_POOL_Z = 2;

/** M19: the baseline share and the calls it rests on (M6). */
export function baselineShare(
  days: readonly ShareDay[],
  prior?: SharePrior,
): { share: number; baseTrials: number } {
  const sum = (ds: readonly ShareDay[]) => ({
    hits: ds.reduce((s, d) => s + d.hits, 0),
    trials: ds.reduce((s, d) => s + Math.max(d.trials, d.hits), 0),
  });
  const same = sum(days.filter((d) => d.sameKind !== false));
  const other = sum(days.filter((d) => d.sameKind === false));
  const all = { hits: same.hits + other.hits, trials: same.trials + other.trials };
  const of = (c: { hits: number; trials: number }) =>
    prior && c.trials > 0
      ? {
          share: (c.hits + prior.strength * prior.share) / (c.trials + prior.strength),
          baseTrials: c.trials + prior.strength,
        }
      : { share: (c.hits + 0.5) / (c.trials + 1), baseTrials: c.trials };
  if (same.trials === 0 || other.trials === 0) {
    return of(same);
  }
  const pooled = (all.hits + 0.5) / (all.trials + 1);
  const sd = Math.sqrt(pooled * (1 - pooled) * (1 / same.trials + 1 / other.trials));
  const z = Math.abs(same.hits / same.trials - other.hits / other.trials) / sd;
  return z > SHARE_POOL_Z ? of(same) : of(all);
}

// M31: what the other subjects of the same kind say about a subject's share before its own calls do
// (empirical Bayes): a beta prior whose mean is their pooled share and whose strength
// (pseudo-calls) comes from how much their shares differ beyond binomial noise (moments: Σ Tᵢ (sᵢ −
// p)² ≈ (n − 1) p (1 − p) + V (T − Σ Tᵢ² / T), strength p (1 − p) / V − 1), never more than the
// median subject's own calls, so a subject's data always counts at least as much.
export interface SharePrior {
  share: number;
  strength: number;
}

export function sharePrior(
  subjects: ReadonlyArray<{ hits: number; trials: number }>,
): SharePrior | undefined {
  const used = subjects.filter((s) => s.trials > 0);
  if (used.length < 3) {
    return undefined;
  }
  const total = used.reduce((sum, s) => sum + s.trials, 0);
  const share = (used.reduce((sum, s) => sum + s.hits, 0) + 0.5) / (total + 1);
  const pq = share * (1 - share);
  const spread = used.reduce((sum, s) => sum + s.trials * (s.hits / s.trials - share) ** 2, 0);
  const weight = total - used.reduce((sum, s) => sum + s.trials ** 2, 0) / total;
  const between = weight > 0 ? (spread - (used.length - 1) * pq) / weight : 0;
  const sorted = used.map((s) => s.trials).sort((a, b) => a - b);
  const cap = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const strength = between > 0 ? Math.min(cap, pq / between - 1) : cap;
  return strength > 0 ? { share, strength } : undefined;
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
