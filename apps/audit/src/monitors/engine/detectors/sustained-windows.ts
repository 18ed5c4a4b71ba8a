import { Finding } from '../monitors.types';
import { negativeBinomialLower, negativeBinomialUpper } from '../baselines/count-tests';
import { RateInput, SeriesOf, baselineDaysOf, seriesKey } from './detector-input';
import { isWeekend } from './time-window';
import { median } from '../baselines/seasonal-baseline';
import { ERROR_RATE_SPECS } from './error-rate-detectors';
import { RATE_SPECS } from './rate-detectors';

/**
 * M61: a change that lasts is judged over windows as long as it, not only over the detector's own
 * window. A bursty subject's 15 minutes hold one or two bursts, so a drop to an eighth or a spike of
 * four times is within their spread; over an hour or two the bursts average out (M40's dispersion
 * scales with the window as independent quarters add up) while the change does not.
 */
const SUSTAINED_MINUTES = [60, 120];

/**
 * The windows a count or share detector of `windowMinutes` is judged over, its own first; a longer
 * window ending at `end` only when it starts on a day of the same kind (M6: weekday or weekend in
 * UTC), since its baseline days are of its start's kind and two hours of a Saturday night judged
 * against Friday nights is a drop of nothing.
 */
export function sustainedWindows(windowMinutes: number, end?: Date): number[] {
  return [
    windowMinutes,
    ...SUSTAINED_MINUTES.filter(
      (m) =>
        m > windowMinutes &&
        (!end || isWeekend(new Date(end.getTime() - m * 60_000)) === isWeekend(end)),
    ),
  ];
}

/** The detectors judged over the longer windows too: counts and shares, not novelty. */
export function isSustainedDetector(detector: string): boolean {
  return !NOT_SUSTAINED.has(detector);
}
const NOT_SUSTAINED = new Set(['LLM_GATEWAY_FAILOVER_SPIKE']);

/** One window's findings, the detector's own window first. */
export interface WindowFindings {
  minutes: number;
  findings: Finding[];
}

/**
 * One finding per detector and subject at a tick: the detector's own window's (the sharpest
 * evidence of when it started), a longer window's only where the shorter saw nothing and the change
 * is still under way: the own window's count (`recent`) beyond what the longer window expected of
 * that many minutes at 1 % as a Poisson (up for a spike, down for a drop) and showing at least half
 * the longer window's change on the log scale (the square root of its ratio), so that an hour's
 * window does not keep finding a change for an hour after it ended; and (M79, `leans`) the own
 * window judged by its own model leaning the same way at 5 % (`own-window-lean.ts`). M88: a drop
 * asks `recent` of the shortest judged window in which it can show at all (`gateWindow`); `leans`
 * is asked of the own window always (M90: asked of the longer one, it let model misfits through).
 */
export function sustainedFindings(
  byWindow: readonly WindowFindings[],
  recent: (finding: Finding, minutes: number) => number | undefined,
  leans: (finding: Finding, minutes: number) => boolean = () => true,
): Finding[] {
  const own = byWindow[0]?.minutes ?? 0;
  const judged = byWindow.map((w) => w.minutes);
  const seen = new Set<string>();
  const kept: Finding[] = [];
  for (const { minutes, findings } of byWindow) {
    for (const finding of findings) {
      const key = `${finding.detector}:${finding.subject.type}:${finding.subject.id}`;
      const asked = minutes === own ? own : gateWindow(finding, minutes, judged);
      const underway =
        minutes === own ||
        (isSustainedDetector(finding.detector) &&
          !(finding.direction === 'DROP' && isShareDetector(finding.detector)) &&
          stillUnderway(finding, recent(finding, asked), asked) &&
          leans(finding, own));
      if (!seen.has(key) && underway) {
        seen.add(key);
        kept.push(finding);
      }
    }
  }
  return kept;
}

/**
 * M88: the window a longer window's finding asks whether its change is still under way. The own
 * window, unless the finding is a drop the own window cannot show at M62's tail: a Poisson of E
 * expected events has no count below e^−E, so under 4.6 events (a night's or a weekend's 15
 * minutes) not even 0 is a drop at 1 %, and at 6 events a drop to an eighth leaves one, which is
 * not (2 %): the gate refused such drops however deep over two hours. A drop asks the shortest
 * judged window shorter than its own in which the count it leaves at its depth (the longer
 * window's ratio, rounded up) is beyond 1 %, else the own window as before. A spike has no such
 * floor, and asks the own window. M79's lean, by the full model, is asked of the own window.
 */
export function gateWindow(finding: Finding, minutes: number, judged: readonly number[]): number {
  const own = judged[0] ?? minutes;
  const evidence = finding.evidence as { baselinePerMinute?: number; ratio?: number };
  const perMinute = evidence.baselinePerMinute;
  if (finding.direction !== 'DROP' || perMinute === undefined) {
    return own;
  }
  const showable = judged.find((m) => {
    const expected = { mean: perMinute * m, size: POISSON_SIZE };
    const left = Math.ceil((evidence.ratio ?? 0) * expected.mean);
    return m < minutes && negativeBinomialLower(left, expected) <= UNDERWAY_TAIL;
  });
  return showable ?? own;
}

function stillUnderway(finding: Finding, recent: number | undefined, minutes: number): boolean {
  const evidence = finding.evidence as { baselinePerMinute?: number; ratio?: number };
  if (recent === undefined || evidence.baselinePerMinute === undefined) {
    return false;
  }
  const expected = { mean: evidence.baselinePerMinute * minutes, size: POISSON_SIZE };
  // At least half the longer window's change, on the log scale, is still in the own window.
  const halfWay = Math.sqrt(evidence.ratio ?? 1) * expected.mean;
  return finding.direction === 'DROP'
    ? recent <= halfWay && negativeBinomialLower(recent, expected) <= UNDERWAY_TAIL
    : recent >= halfWay && negativeBinomialUpper(recent, expected) <= UNDERWAY_TAIL;
}
// A share falling over hours is most often an earlier share anomaly lifting the baseline days
// (M19 pools them); the longer windows judge shares upward only.
function isShareDetector(detector: string): boolean {
  return (
    (RATE_SPECS as Record<string, { shareOf?: string } | undefined>)[detector]?.shareOf !==
    undefined
  );
}

/** A negative binomial this large is a Poisson: the gate asks only whether the change is still there. */
const POISSON_SIZE = 1e9;
/** The own window's count must be at least this unlikely at the longer window's rate (z 2.33). */
const UNDERWAY_TAIL = 0.01;

/** The series whose own-window count tells whether a finding's change is still under way. */
export function detectorSeriesKey(finding: Finding): string {
  const metric =
    finding.detector in ERROR_RATE_SPECS
      ? 'ERRORS'
      : (RATE_SPECS as Record<string, { metric: string } | undefined>)[finding.detector]?.metric;
  return seriesKey(finding.subject.type, finding.subject.id, metric ?? '');
}

/**
 * M63: a longer window judges only the subjects whose own window could pass M62's gate: some
 * series of theirs beyond its own window's usual count (the median of its M6 baseline days) at 5 %
 * as a Poisson, either way, a looser cut than the gate's 1 %. The others' longer windows could
 * raise nothing, and judging every subject three times tripled the detectors' work.
 */
/** M63: the subjects (ids) a longer window judges, the tenant always (its holidays, M43). */
export function candidateSubjects(own: RateInput): string[] {
  const daysOf = baselineDaysOf(own);
  const candidates = new Set<string>([own.tenantId]);
  for (const series of own.series.values()) {
    if (isCandidate(series, daysOf(series.subjectType, series.subjectId), own.exposure)) {
      candidates.add(series.subjectId);
    }
  }
  return [...candidates];
}

export function candidatesOnly<T extends Pick<RateInput, 'byKind'>>(longer: T, own: RateInput): T {
  const daysOf = baselineDaysOf(own);
  const candidates = new Set<string>();
  for (const series of own.series.values()) {
    const subject = `${series.subjectType}:${series.subjectId}`;
    if (
      !candidates.has(subject) &&
      isCandidate(series, daysOf(series.subjectType, series.subjectId), own.exposure)
    ) {
      candidates.add(subject);
    }
  }
  const byKind = new Map<string, SeriesOf[]>();
  for (const [kind, list] of longer.byKind) {
    byKind.set(
      kind,
      list.filter((s) => candidates.has(`${s.subjectType}:${s.subjectId}`)),
    );
  }
  return { ...longer, byKind };
}

function isCandidate(series: SeriesOf, days: readonly number[], exposure: number): boolean {
  if (days.length === 0) {
    return false;
  }
  const usual = {
    mean: Math.max(0.5, median(days.map((d) => (series.days[d] ?? 0) / exposure))),
    size: POISSON_SIZE,
  };
  const now = series.days[0] ?? 0;
  return (
    negativeBinomialUpper(now, usual) <= CANDIDATE_TAIL ||
    negativeBinomialLower(now, usual) <= CANDIDATE_TAIL
  );
}
const CANDIDATE_TAIL = 0.05;
