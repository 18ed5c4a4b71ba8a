import { MIN_DISPERSION, fitKinds, median, withoutOutlierDays } from './seasonal-baseline';

/** A baseline day as M41 reads it: its age, its count per window, and M6's kind for it. */
export interface KindDay {
  age: number;
  perWindow: number;
  sameKind: boolean;
  /** M43: the tenant's holiday: no evidence of the subject's week. */
  isHoliday?: boolean;
}

const WEEK = 7;

// How much better (in −2 log-likelihood, penalties included) another week must fit a subject's days
// than M6's before it replaces it: a likelihood ratio of e^4.5 ≈ 90, so noise does not move a
// subject's weekend from one pair of days to another.
const SWITCH_EVIDENCE = 9;

// M41: which baseline days are of the window's own kind, learned from the subject's days rather
// than from the weekday in UTC (M6, M30, M18, M40).
export function learnedDayKinds<T extends KindDay>(
  days: readonly T[],
  exposure: number,
  dispersion: number,
  weekday: number,
): readonly T[] {
  const positions = new Set(days.map((d) => d.age % WEEK));
  if (positions.size < WEEK) {
    return days;
  }
  // An earlier anomaly's day is no evidence of a week (M30, M43, M47).
  const holidays = new Set(days.filter((d) => d.isHoliday).map((d) => d.age));
  // A holiday moved onto a day is one only where that day is low among the week's workdays: the
  // move must not let a week drop whichever busy day it fits worst.
  const shifted = (offset: number, inPair: (d: T) => boolean): readonly T[] => {
    if (offset === 0 || holidays.size === 0) {
      return days;
    }
    const moved = (d: T): boolean => holidays.has(d.age - offset) && !inPair(d);
    const usual = median(days.filter((d) => !inPair(d) && !moved(d)).map((d) => d.perWindow));
    return days.map((d) => ({ ...d, isHoliday: moved(d) && d.perWindow < usual }));
  };
  const scoredOf = (of: readonly T[]): readonly T[] =>
    withoutOutlierDays(
      of.filter((d) => !d.isHoliday),
      exposure,
    );
  // Scores are scaled to as many days as M6's: a holiday shifted out of the lookback leaves a
  // week one more day to fit, which must not count against it.
  const reference = scoredOf(days).length;
  const penalty = Math.log(reference);
  const score = (of: readonly T[], inPair: (d: T) => boolean): number => {
    const scored = scoredOf(of);
    const kinds = new Set(scored.map(inPair)).size;
    return (
      (weekFit(scored, inPair, exposure, dispersion) * reference) / scored.length +
      (kinds + 1) * penalty
    );
  };
  // M6's kinds as given: a day is of the window's kind or not.
  const utc = score(days, (d) => d.sameKind);
  let best = { score: utc, of: days, inPair: (d: T): boolean => d.sameKind, today: true };
  // Saturday and Sunday in UTC, and a day either side of them: a time zone moves the local date
  // by at most one day at any clock time (and the holidays with it).
  const sunday = ((weekday % WEEK) + WEEK) % WEEK;
  for (const offset of [-1, 0, 1]) {
    const p = (sunday + offset + WEEK) % WEEK;
    const inPair = (d: T): boolean => d.age % WEEK === p || d.age % WEEK === (p + 1) % WEEK;
    const of = shifted(offset, inPair);
    if (of.filter((d) => !d.isHoliday && inPair(d)).length < 2) {
      // A weekend of one day (the other a holiday) is no evidence of a week.
      continue;
    }
    const s = score(of, inPair);
    if (s < best.score) {
      best = { score: s, of, inPair, today: p === 0 || p === WEEK - 1 };
    }
  }
  const flat = score(days, () => true);
  if (flat < best.score) {
    best = { score: flat, of: days, inPair: () => true, today: true };
  }
  if (best.score > utc - SWITCH_EVIDENCE) {
    return days;
  }
  const { of, inPair, today } = best;
  return of.map((d) => ({ ...d, sameKind: inPair(d) === today }));
}

// −2 log-likelihood (normal, up to a constant) of the days around a fit with one mean per kind and
// one relative slope (as M18's), each day's variance its Poisson part over `exposure` windows plus
// its extra variance (the burstiness of a window spread over the day's windows, and the level
// noise).
export function weekFit<T extends KindDay>(
  days: readonly T[],
  inKind: (d: T) => boolean,
  exposure: number,
  dispersion: number,
): number {
  const groups = [days.filter(inKind), days.filter((d) => !inKind(d))].filter((g) => g.length > 0);
  const { stats, slope } = fitKinds(groups);
  const extra = dispersion / Math.max(exposure, 1) + MIN_DISPERSION;
  let chi = 0;
  for (const g of stats) {
    for (const d of g.days) {
      const fit = Math.max(0, g.mean * (1 + slope * (d.age - g.meanAge)));
      // Half an event over the day's windows at least: a silent day still has Poisson noise.
      const variance = Math.max(fit, 0.5 / exposure) / exposure + extra * fit * fit;
      // −2 log-likelihood of a normal: the log-variance keeps a fit from winning by running high.
      chi += (d.perWindow - fit) ** 2 / variance + Math.log(variance);
    }
  }
  return chi;
}
