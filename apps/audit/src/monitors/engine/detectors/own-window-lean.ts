import { DetectorSettings } from '../detector-settings';
import { Finding } from '../monitors.types';
import { RateInput, seasonalDaysOf, seriesKey } from './detector-input';
import {
  ERROR_RATE_SPECS,
  ErrorRateDetector,
  assessErrorRate,
  errorRatePrior,
} from './error-rate-detectors';
import { RATE_SPECS, RateDetector, assessSeries } from './rate-detectors';

/**
 * How far the own window must lean, one-sided: a spike at M62's 1 % (z 2.33), a drop at 10 % (z
 * 1.28). A count's lower tail is short of evidence on a bursty subject: at a coefficient of
 * variation of 0.7 a quarter, 15 minutes at an eighth of the usual are at z ≈ 1.6 only, while four
 * times the usual are at z ≈ 2.5 (`sustained-windows.spec.ts`).
 */
const LEAN_Z = { SPIKE: 2.326, DROP: 1.282 };

/**
 * M79: whether the detector's own window, judged by its own full model (the subject's burstiness,
 * level noise and trend as at any tick, not a Poisson), leans the way a longer window's finding
 * says (`LEAN_Z`). M62's gate asked a Poisson at the longer window's rate whether the change was still
 * there; a subject an anomaly touched earlier in the two hours, whose own window is within its
 * usual spread (its warnings at 1.4 × with a z of 0.9), passed it and raised the aftermath. A
 * change under way leans its own window even where the window alone cannot prove it: a bursty
 * agent's drop to an eighth is at z ≈ 1.6 in 15 minutes, its spike of four times at z ≈ 2.5.
 */
export function ownWindowLeans(
  finding: Finding,
  own: Omit<RateInput, 'settings'>,
  settings: DetectorSettings,
): boolean {
  const lean: DetectorSettings =
    finding.direction === 'DROP'
      ? { ...settings, zScore: LEAN_Z.DROP, spikeRatio: Infinity, dropRatio: Infinity }
      : { ...settings, zScore: LEAN_Z.SPIKE, spikeRatio: 0, dropRatio: 0, minRatePct: 0 };
  const input: RateInput = { ...own, settings: lean };
  const daysOf = seasonalDaysOf(input);
  const { type, id } = finding.subject;
  if (finding.detector in ERROR_RATE_SPECS) {
    const spec = ERROR_RATE_SPECS[finding.detector as ErrorRateDetector];
    const calls = input.series.get(seriesKey(type, id, spec.calls));
    const prior = errorRatePrior(spec, daysOf, input);
    return (
      calls !== undefined &&
      assessErrorRate(calls, daysOf, input, lean, prior)?.direction === finding.direction
    );
  }
  const detector = finding.detector as RateDetector;
  const spec = RATE_SPECS[detector];
  const series = spec ? input.series.get(seriesKey(type, id, spec.metric)) : undefined;
  return (
    series !== undefined &&
    assessSeries(detector, series, daysOf, input, lean)?.direction === finding.direction
  );
}
